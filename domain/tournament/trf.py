"""FIDE's Tournament Report File (TRF-16, with javafo's TRF(x) codes XXR, XXC and XXZ) of a
2-seat tournament: its players, their scores and every round's result.

Starting numbers are the lot's order (place 0 is number 1): the initial order a Dutch pairing
ranks equal scores by, as ratings would in chess. Seat 0 is white, seat 1 black. A bye is a
pairing-allocated bye (U), a forfeit + and -, a void table or a round after withdrawing a
zero-point bye (Z). docs/tournaments.md, "TRF".
"""

from __future__ import annotations

from fractions import Fraction

from .model import Entrant, RoundRecord, Settings
from .scoring import lot
from .standings import standings
from .tally import tally

RESULT = {Fraction(1): "1", Fraction(1, 2): "=", Fraction(0): "0"}


def starting_numbers(seed: bytes, entrants: list[Entrant]) -> dict[int, int]:
    """Each entrant's TRF starting number: its place in the lot, from 1."""
    return {number: place + 1 for number, place in lot(seed, entrants).items()}


def trf_text(settings: Settings, seed: bytes, entrants: list[Entrant],
             history: list[RoundRecord], rounds: int, *, name: str = "",
             absent: set[int] | None = None) -> str:
    """The TRF of a 2-seat tournament after ``history``; ``absent`` (entrant numbers) are
    named in XXZ as not playing the next round."""
    start = starting_numbers(seed, entrants)
    records = tally(entrants, history, settings.table_size)
    ranked = {s.entrant: s.rank for s in standings(settings, seed, entrants, history)}
    lines = [f"012 {name}"[:80], f"062 {len(entrants)}", "092 Swiss (Dutch)",
             f"XXR {rounds}", "XXC white1"]
    if absent:
        numbers = sorted(start[n] for n in absent)
        lines.append("XXZ " + " ".join(map(str, numbers)))
    by_start = sorted(entrants, key=lambda e: start[e.number])
    for e in by_start:
        cells = [_cell(e.number, record, start) for record in history]
        points = f"{float(records[e.number].points):4.1f}"
        head = (f"001 {start[e.number]:>4}      {e.name[:33]:<33} {'':>4} {'':>3} {'':>11} "
                f"{'':>10} {points} {ranked[e.number]:>4}")
        lines.append(head + "".join(f"  {cell}" for cell in cells))
    return "\n".join(lines) + "\n"


def _cell(number: int, record: RoundRecord, start: dict[int, int]) -> str:
    """One round's result of one entrant: opponent, colour, result."""
    if number in record.pairing.byes:
        return "0000 - U"
    if number in record.pairing.half_byes:
        return "0000 - H"
    for table in record.pairing.tables:
        if number not in table.seats:
            continue
        result = record.result(table.number)
        if result is None:  # a void table
            return "0000 - Z"
        seat = table.seats.index(number)
        other = table.seats[1 - seat]
        colour = "w" if seat == 0 else "b"
        if result.forfeited:
            return f"{start[other]:>4} {colour} {'-' if number in result.forfeited else '+'}"
        mine, theirs = result.placements[seat], result.placements[1 - seat]
        score = Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)
        return f"{start[other]:>4} {colour} {RESULT[score]}"
    return "0000 - Z"  # not paired: withdrawn
