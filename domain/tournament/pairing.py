"""The next round of any format, re-derivable by anyone from the seed and the results so far."""

from __future__ import annotations

import msgspec

from . import elimination, round_robin
from .dutch import pair_dutch
from .model import (
    Entrant,
    NoRound,
    Pairing,
    RoundRecord,
    Settings,
    TournamentError,
    active,
    paired,
)
from .scoring import lot
from .standings import standings
from .swiss import pair_swiss
from .tally import tally


def rounds_total(settings: Settings, entrants: list[Entrant]) -> int:
    """How many rounds the tournament has: ``settings.rounds`` or the format's natural count."""
    count = len(active(entrants, 1))
    least = max(2, settings.table_size)
    if count < least:
        raise TournamentError(f"a {settings.format} tournament needs at least {least} entrants, "
                              f"it has {count}")
    natural = _natural(settings, count)
    most = natural if settings.format != "swiss" else count - 1
    rounds = settings.rounds or natural
    if settings.format == "single-elimination" and rounds != natural:
        raise TournamentError(f"single-elimination with {count} entrants plays {natural} "
                              f"rounds, not {rounds}")
    if rounds > most:
        raise TournamentError(f"{settings.format} with {count} entrants has at most {most} "
                              f"rounds, not {rounds}")
    return rounds


def _natural(settings: Settings, count: int) -> int:
    """The format's own number of rounds for ``count`` entrants."""
    if settings.format == "round-robin":
        return round_robin.natural_rounds(count, settings.table_size)
    return _log_ceil(count, settings.table_size)  # Swiss and single elimination


def _log_ceil(count: int, base: int) -> int:
    """The fewest rounds in which tables of ``base`` could narrow ``count`` down to one."""
    rounds, reach = 0, 1
    while reach < count:
        rounds, reach = rounds + 1, reach * base
    return rounds


def ended(
    settings: Settings, seed: bytes, entrants: list[Entrant], history: list[RoundRecord]
) -> str | None:
    """Why no round can follow ``history`` before the last (too few entrants left, or the
    bracket decided), or None while one can; cheap: it pairs nothing."""
    number = len(history) + 1
    playing = {e.number for e in active(entrants, number)}
    if len(playing) < max(2, settings.table_size):
        return f"round {number} has only {len(playing)} entrants still in"
    if settings.format == "single-elimination" and history:
        draw = lot(seed, entrants)
        if settings.seeding == "standing":
            alive = set(elimination.advanced(history[-1], draw)) & playing
        else:
            seeds = [e.number for e in active(entrants, 1)]
            alive = {n for n in elimination.slots(seeds, history, draw) if n in playing}
        if len(alive) < 2:
            return f"the bracket is decided before round {number}"
    return None


def pair_round(
    settings: Settings, seed: bytes, entrants: list[Entrant], history: list[RoundRecord]
) -> Pairing:
    """The next round's pairing from the seed and every earlier round's results."""
    number = len(history) + 1
    total = rounds_total(settings, entrants)
    if number > total:
        raise TournamentError(f"the tournament has {total} rounds; all are paired")
    _check_history(history)
    why = ended(settings, seed, entrants, history)
    if why is not None:
        raise NoRound(why)
    playing = [e.number for e in paired(entrants, number)]
    if len(playing) < max(2, settings.table_size):
        raise TournamentError(f"round {number} has only {len(playing)} entrants to pair (the "
                              "others asked for a bye)")
    half = sorted(e.number for e in active(entrants, number) if number in e.byes_requested)
    return msgspec.structs.replace(
        _paired(settings, seed, entrants, history, playing, number, total), half_byes=half)


def _paired(settings: Settings, seed: bytes, entrants: list[Entrant],
            history: list[RoundRecord], playing: list[int], number: int, total: int) -> Pairing:
    """The round's tables and byes by the format (the requested byes set apart)."""
    if settings.format == "round-robin":
        return _round_robin(settings, seed, entrants, history, playing, number)
    if settings.format == "swiss" and settings.pairing == "dutch":
        return pair_dutch(settings, seed, entrants, history, playing, total)
    if settings.format == "swiss":
        ranked = _ranked(settings, seed, entrants, history, set(playing))
        records = tally(entrants, history, settings.table_size)
        return pair_swiss(ranked, records, number, settings.table_size)
    return _elimination(settings, seed, entrants, history, set(playing), number)


def _check_history(history: list[RoundRecord]) -> None:
    """Every earlier round numbered in order and every table of it finished."""
    for expected, record in enumerate(history, start=1):
        if record.pairing.round != expected:
            raise TournamentError(f"round {expected} is recorded as round {record.pairing.round}")
        for table in record.pairing.tables:
            if record.result(table.number) is None and table.number not in record.void:
                raise TournamentError(f"round {expected}, table {table.number} has no result yet")


def _round_robin(
    settings: Settings,
    seed: bytes,
    entrants: list[Entrant],
    history: list[RoundRecord],
    playing: list[int],
    number: int,
) -> Pairing:
    """Round robin at 2-seat tables (the circle) or larger ones (rotated)."""
    if settings.table_size == 2:
        return round_robin.pair_two_seat(entrants, set(playing), lot(seed, entrants), number)
    records = tally(entrants, history, settings.table_size)
    return round_robin.pair_large(seed, playing, records, settings.table_size, number)


def _ranked(
    settings: Settings,
    seed: bytes,
    entrants: list[Entrant],
    history: list[RoundRecord],
    playing: set[int],
) -> list[int]:
    """The playing entrants in standing order."""
    table = standings(settings, seed, entrants, history)
    return [s.entrant for s in table if s.entrant in playing]


def _elimination(
    settings: Settings,
    seed: bytes,
    entrants: list[Entrant],
    history: list[RoundRecord],
    playing: set[int],
    number: int,
) -> Pairing:
    """Single elimination: the fixed bracket, or the survivors re-seeded by standing."""
    draw = lot(seed, entrants)
    if settings.seeding == "standing":
        alive = set(playing) if not history else set(elimination.advanced(history[-1], draw))
        ranked = [n for n in _ranked(settings, seed, entrants, history, playing) if n in alive]
        pairing = elimination.pair_reseeded(ranked, number)
    else:
        seeds = [e.number for e in active(entrants, 1)]
        places = [n if n in playing else None for n in elimination.slots(seeds, history, draw)]
        pairing = elimination.pair_fixed(places, {n: i for i, n in enumerate(seeds)}, number)
    if not pairing.tables:
        raise NoRound(f"the bracket is decided before round {number}")
    return pairing



