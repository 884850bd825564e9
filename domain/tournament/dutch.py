"""2-seat Swiss by FIDE's Dutch system (C.04.3, as in force until 2026), through py4swiss's
engine (MIT; tested by its author against bbpPairings) on the tournament's TRF.

Pure: the TRF is built and parsed in memory, the engine is deterministic. Seat 0 plays the
part of white, so the Dutch colour rules are seat rules: balance of first seats, no one more
than twice in a row in the same seat, preferences by the last seats. Pinned to py4swiss 0.3.1
(pyproject.toml): a bundle is re-derived with the same engine. docs/tournaments.md, "Swiss".
"""

from __future__ import annotations

from collections import defaultdict

from py4swiss.engines import DutchEngine
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode, TeamCode, TournamentCode, XCode
from py4swiss.trf.sections import PlayerSection, TeamSection, TournamentSection, XSection
from py4swiss.trf.trf_line import TrfLine

from .model import Entrant, Pairing, RoundRecord, Settings, Table, TournamentError
from .trf import starting_numbers, trf_text

ENGINE = "py4swiss 0.3.1 (dutch)"


def parse(text: str) -> ParsedTrf:
    """A TRF's text parsed as py4swiss's TrfParser parses a file (strictly)."""
    lines: dict[object, list[TrfLine]] = defaultdict(list)
    for index, raw in enumerate(text.splitlines()):
        if raw.strip() and not raw.strip().startswith("#"):
            line = TrfLine(index, raw.strip())
            lines[line.code_type].append(line)
    trf = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(line)) for line in lines[PlayerCode]],
        team_sections=[TeamSection.from_string(str(line)) for line in lines[TeamCode]],
        tournament_section=TournamentSection.from_lines(lines[TournamentCode]),
        x_section=XSection.from_lines(lines[XCode]),
    )
    trf.validate_contents()
    return trf


def pair_dutch(settings: Settings, seed: bytes, entrants: list[Entrant],
               history: list[RoundRecord], playing: list[int], rounds: int) -> Pairing:
    """The next round by the Dutch system: tables in FIDE's publishing order, white first."""
    absent = {e.number for e in entrants} - set(playing)
    text = trf_text(settings, seed, entrants, history, rounds, absent=absent)
    try:
        found = DutchEngine.generate_pairings(parse(text))
    except Exception as error:  # the engine's PairingError: no valid pairing exists
        raise TournamentError(f"the Dutch system finds no pairing: {error}") from None
    number = {start: n for n, start in starting_numbers(seed, entrants).items()}
    tables: list[Table] = []
    byes: list[int] = []
    for pair in found:
        if pair.black == 0:
            byes.append(number[pair.white])
        else:
            tables.append(Table(number=len(tables) + 1,
                                seats=[number[pair.white], number[pair.black]]))
    return Pairing(round=len(history) + 1, tables=tables, byes=sorted(byes))
