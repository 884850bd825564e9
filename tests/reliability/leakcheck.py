"""What a viewer may know, from the database's events, and what a served view or log shows.

Any game: the state is folded from the stored events (the whole truth) under the match's own
rules version; a served board must be exactly the game's observer output for that viewer (so the
server adds nothing), and no served board or log line may mention a value the game's ``secrets``
says that viewer may not see (tests/games/conformance.py, docs/conformance.md). The domain's own
leak tests (tests/domain/*/test_*_leaks.py) follow every physical card through the observer.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core import match
from domain.core.decider import Rulebook
from domain.registry import lookup
from projections.log import seat_log
from tests.games.conformance import secrets_of, shows, strings


def rules_of(state: match.MatchState) -> Rulebook:
    """The rulebook a match state was played under."""
    return lookup(state.created.game, state.created.rules_version)


def view_problems(table: Any, seat: int | None, view: dict[str, Any]) -> list[str]:
    """How a served view differs from what the viewer may see of the stored state."""
    game, board, found = rules_of(table), view["board"], []
    expected = msgspec.json.decode(msgspec.json.encode(game.observe(table.game, seat)))
    if board != expected:
        found.append(f"seat {seat}: the served board is not the observer's view")
    for secret in shows(secrets_of(game, table, seat), "\n".join(strings(board))):
        found.append(f"seat {seat}: the served board shows {secret!r}, which it may not know")
    return found


def log_problems(events: list[Any], seat: int | None, served: dict[str, Any]) -> list[str]:
    """How a served log differs from the lines the stored events give that reader."""
    game = rules_of(match.Lobby(created=events[0]))
    lines = msgspec.json.decode(msgspec.json.encode(seat_log(game, events, seat)))
    found = [] if served["entries"] == lines else [f"seat {seat}: the log differs"]
    if seat is None and any(line["private"] for line in served["entries"]):
        found.append("the public log holds a private line")
    return found


def is_table(state: Any) -> bool:
    """Whether play has begun."""
    return isinstance(state, match.Table)
