"""Tournaments: settings, pairings for three formats, points and standings (pure; no I/O).

The rules are stated in docs/tournaments.md.
"""

from .actions import (
    Action,
    canonical,
    check_actions,
    check_override,
    due_withdrawal,
    forfeits,
    overridden,
    tournament_id,
    voided,
)
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
from .pairing import ended, pair_round, rounds_total
from .scoring import bye_points, decimal, lot, match_points
from .standings import CSV_COLUMNS, TIEBREAKS, Standing, rows, standings, standings_csv

__all__ = [
    "CSV_COLUMNS",
    "TIEBREAKS",
    "Action",
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
    "canonical",
    "check_actions",
    "check_override",
    "check_settings",
    "decimal",
    "due_withdrawal",
    "ended",
    "forfeits",
    "lot",
    "match_points",
    "overridden",
    "pair_round",
    "rounds_total",
    "rows",
    "standings",
    "standings_csv",
    "tournament_id",
    "voided",
]
