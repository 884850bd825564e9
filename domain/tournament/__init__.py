"""Tournaments: settings, pairings for three formats, points and standings (pure; no I/O).

The rules are stated in docs/tournaments.md.
"""

from .model import (
    Entrant,
    NoRound,
    Pairing,
    RoundRecord,
    Settings,
    Table,
    TableResult,
    TournamentError,
    active,
    check_settings,
)
from .pairing import pair_round, rounds_total
from .scoring import bye_points, decimal, lot, match_points
from .standings import CSV_COLUMNS, TIEBREAKS, Standing, rows, standings, standings_csv

__all__ = [
    "CSV_COLUMNS",
    "TIEBREAKS",
    "Entrant",
    "NoRound",
    "Pairing",
    "RoundRecord",
    "Settings",
    "Standing",
    "Table",
    "TableResult",
    "TournamentError",
    "active",
    "bye_points",
    "check_settings",
    "decimal",
    "lot",
    "match_points",
    "pair_round",
    "rounds_total",
    "rows",
    "standings",
    "standings_csv",
]
