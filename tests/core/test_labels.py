"""The plain label a game gets when it writes none: the command's own fields, nothing else."""

from domain.core.decider import Concede, plain_label
from domain.whiteout_road.commands import Commit


def test_a_plain_label_is_the_commands_tag_and_its_fields_that_are_set():
    """Given a commit with no wagon and a concede, then their plain labels are the tag followed
    by the fields that are set, and the tag alone."""
    assert plain_label(None, 0, Commit(card="7C", play="feed")) == "commit: card 7C, play feed"
    assert plain_label(None, 0, Concede()) == "concede"
