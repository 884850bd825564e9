"""Labels: a seat's commands as a person reads them on a button, naming only its own cards."""

from __future__ import annotations

from deathwick_support import Table

from domain.core.reactions import Allow
from domain.deathwick import GAME
from domain.deathwick.commands import (
    Banish,
    CastCard,
    DiscardCard,
    Haunt,
    Panic,
    PassRitual,
    ThrowSalt,
)


def test_each_kind_of_command_reads_as_an_order():
    """Given Mara's table, then every command reads in the rulebook's words."""
    t = Table(3)
    label = lambda command: GAME.label(t.state, 0, command)  # noqa: E731
    assert label(Haunt(card="7H", target=1)) == "Haunt Bryn with the 7 of hearts"
    assert label(CastCard(card="4C", target=2)) == "Cast the 4 of clubs (Drain) on Cato"
    assert label(CastCard(card="8H", target=1, ghost="6C")) == \
        "Cast the 8 of hearts (Recall) on the 6C ghost of Bryn's Shadow"
    assert label(CastCard(card="QS", choice="candle")) == "Cast the queen of spades (Medium), onto " \
        "your Candle"
    assert label(Banish(card="9H", ghost="7C")) == "Banish the 7C ghost with the 9 of hearts"
    assert label(Panic(ghost="7C")) == "Panic against the 7C ghost"
    assert label(PassRitual()) == "Pass"
    assert label(ThrowSalt(card="5H")) == "Answer with Salt (the 5 of hearts)"
    assert label(Allow()) == "Allow it"
    assert label(DiscardCard(card="JOKER")) == "Discard a joker"
