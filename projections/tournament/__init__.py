"""The tournament bundle (one NDJSON stream) and its offline verifier; docs/tournaments.md."""

from projections.tournament.bundle import (
    FORMAT_VERSION,
    BundleTable,
    Line,
    MatchLine,
    RoundLine,
    StandingRow,
    StandingsLine,
    TournamentLine,
    decode_line,
    encode_header,
    encode_match,
    encode_round,
    encode_standings,
    schema_text,
)
from projections.tournament.checks import TournamentProblem
from projections.tournament.verify import TournamentReport, verify_bundle

__all__ = [
    "FORMAT_VERSION",
    "BundleTable",
    "Line",
    "MatchLine",
    "RoundLine",
    "StandingRow",
    "StandingsLine",
    "TournamentLine",
    "TournamentProblem",
    "TournamentReport",
    "decode_line",
    "encode_header",
    "encode_match",
    "encode_round",
    "encode_standings",
    "schema_text",
    "verify_bundle",
]
