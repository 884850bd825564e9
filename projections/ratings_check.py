"""Checking a ratings export against the verified matches it came from (``hearthlog verify
--ratings``): recompute every update in the export's order and name the first difference.

The export's sequence fixes the order of the matches; everything else is recomputed from the
matches alone: who sat where (a player id or bot:<bot>) and the places, through the same fold
(projections/ratings.py). A match the export names but no export holds is a dropped match; a
rated match that rates somebody but appears in no update is an added one (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import groupby

import msgspec

from projections.ratings import (
    FORMAT,
    FORMAT_VERSION,
    Header,
    RatedMatch,
    Rating,
    RatingUpdate,
    header,
    rate,
    seated,
)

FIELDS = ("match_id", "subject", "seat", "place", "mu_before", "sigma_before", "mu_after",
          "sigma_after", "ordinal_after", "games", "provisional")


class Difference(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing found wrong: where (a line of the export, or none), what, and the values."""

    line: int | None  # the export's line (the header is line 1), None: nowhere in it
    message: str
    expected: str | None = None
    found: str | None = None


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    """The verdict: how many updates and matches agreed, and the first difference if any."""

    game: str
    updates: int
    matches: int
    difference: Difference | None = None
    note: str | None = None  # the export's openskill differs from this verifier's


class _Stop(Exception):
    def __init__(self, difference: Difference) -> None:
        super().__init__(difference.message)
        self.difference = difference


def check_header(found: Header) -> None:
    """The export's model, parameters and provisional rule are the ones this fold computes
    with (another openskill version is only noted: its values are compared all the same)."""
    expected = header(found.game)
    if (found.format, found.format_version) != (FORMAT, FORMAT_VERSION):
        _stop(1, "not a ratings export this verifier reads",
              f"{FORMAT} {FORMAT_VERSION}", f"{found.format} {found.format_version}")
    for field in ("model", "parameters", "provisional_games"):
        mine, theirs = getattr(expected, field), getattr(found, field)
        if mine != theirs:
            _stop(1, f"the header's {field} differs from this verifier's", str(mine), str(theirs))


def check(found: Header, updates: Iterable[tuple[int, RatingUpdate]],
          matches: Mapping[str, RatedMatch]) -> Checked:
    """Recompute ``updates`` ((line, update) in the export's order) from the rated ``matches``
    of the game (by match id); the first difference, if any."""
    done: set[str] = set()
    count = 0
    mine = header(found.game).openskill
    note = None if found.openskill == mine else (
        f"the export was computed with openskill {found.openskill}, this verifier has {mine}")
    try:
        check_header(found)
        current: dict[str, Rating] = {}
        for sequence, group in groupby(updates, key=lambda pair: pair[1].sequence):
            lines = list(group)
            if lines[0][1].game != found.game:
                _stop(lines[0][0], "an update of another game", found.game, lines[0][1].game)
            _one_match(sequence, len(done) + 1, lines, matches, current, done)
            count += len(lines)
        _none_left(matches, done)
    except _Stop as stop:
        return Checked(game=found.game, updates=count, matches=len(done),
                       difference=stop.difference, note=note)
    return Checked(game=found.game, updates=count, matches=len(done), note=note)


def _one_match(sequence: int, expected_sequence: int, lines: list[tuple[int, RatingUpdate]],
               matches: Mapping[str, RatedMatch], current: dict[str, Rating],
               done: set[str]) -> None:
    """Check one match's updates (one sequence number) and carry the ratings on."""
    first_line, first = lines[0]
    if sequence != expected_sequence:
        _stop(first_line, "the sequence does not follow on", str(expected_sequence),
              str(sequence))
    match = matches.get(first.match_id)
    if match is None or first.match_id in done:
        what = "twice" if first.match_id in done else "but no verified export holds it"
        _stop(first_line, f"sequence {sequence} rates match {first.match_id} {what} "
              "(a dropped match?)")
    assert match is not None
    recomputed = rate(match, sequence, current)
    for n, expected in enumerate(recomputed):
        line, update = lines[n] if n < len(lines) else (lines[-1][0] + 1, None)
        if update is None:
            _stop(line, f"sequence {sequence} (match {match.match_id}) lacks the update of "
                  f"{expected.subject}", _json(expected), None)
        _same(line, expected, update)
        current[expected.subject] = expected.after
    if len(lines) > len(recomputed):
        line, extra = lines[len(recomputed)]
        _stop(line, f"sequence {sequence} (match {match.match_id}) has an update too many",
              None, _json(extra))
    done.add(match.match_id)


def _same(line: int, expected: RatingUpdate, found: RatingUpdate | None) -> None:
    """Fail on the first field of an update that differs from the recomputed one."""
    for field in FIELDS:
        mine, theirs = getattr(expected, field), getattr(found, field)
        if mine != theirs:
            _stop(line, f"sequence {expected.sequence} (match {expected.match_id}), subject "
                  f"{expected.subject}: {field} differs", repr(mine), repr(theirs))


def _none_left(matches: Mapping[str, RatedMatch], done: set[str]) -> None:
    """Every rated match that rates somebody must have been in the export."""
    for match_id, match in matches.items():
        if match_id not in done and seated(match):
            _stop(None, f"match {match_id} is rated and verified but the ratings export has no "
                  "update for it (an added match, or a short export)")


def _stop(line: int | None, message: str, expected: str | None = None,
          found: str | None = None) -> None:
    """End the check at a difference."""
    raise _Stop(Difference(line=line, message=message, expected=expected, found=found))


def _json(value: object) -> str:
    """A value as one line of JSON."""
    return msgspec.json.encode(value).decode()
