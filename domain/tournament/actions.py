"""What the organizer (or the server for it) did during a tournament, as records the bundle
carries and the verifier checks: withdrawals, forfeits, void tables, the end.

Pure: no I/O, no clock. docs/tournaments.md, "Organizer actions".
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Literal

import msgspec

from .model import Entrant, Pairing, Settings, TournamentError, active

ActionKind = Literal["withdraw", "forfeit", "void", "end", "override", "bye", "late_entry"]
Actor = Literal["organizer", "player", "server"]
REASON_MAX = 200
IDS = uuid.UUID("0f3b9a52-7c1e-4d8a-b6f0-2e5d9c4a7b13")  # the namespace of tournament ids


class Action(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One recorded action. ``round``: withdraw, the last round the entrant was paired in;
    forfeit and void, the round of the table; end, the last round played; override, the round
    the organizer paired by hand; bye, the round the entrant asked not to be paired in;
    late_entry, the first round a late entrant may be paired in."""

    kind: ActionKind
    round: int
    by: Actor = "organizer"
    entrant: int | None = None
    table: int | None = None
    reason: str = ""


def forfeits(actions: list[Action]) -> dict[tuple[int, int], list[int]]:
    """The entrants who forfeited each table, by (round, table)."""
    out: dict[tuple[int, int], list[int]] = {}
    for a in actions:
        if a.kind == "forfeit" and a.table is not None and a.entrant is not None:
            out.setdefault((a.round, a.table), []).append(a.entrant)
    return out


def voided(actions: list[Action], round_number: int) -> list[int]:
    """The tables of a round declared void (no match, no result, nobody scores)."""
    return sorted(a.table for a in actions
                  if a.kind == "void" and a.round == round_number and a.table is not None)


def due_withdrawal(settings: Settings, actions: list[Action], entrant: int) -> bool:
    """Whether an entrant's forfeits have reached the setting that withdraws it."""
    limit = settings.forfeits_to_withdraw
    count = sum(1 for a in actions if a.kind == "forfeit" and a.entrant == entrant)
    return limit is not None and count >= limit


def canonical(name: str, settings: Settings) -> bytes:
    """The name and settings as canonical JSON (sorted keys, defaults left out)."""
    document = {"name": name, "settings": msgspec.to_builtins(settings)}
    return json.dumps(document, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def tournament_id(seed_commitment: str, name: str, settings: Settings) -> str:
    """The tournament's id: UUID 5 of the seed commitment and the canonical settings, so the
    id everyone saw at creation binds every setting (docs/tournaments.md, "The seed")."""
    digest = hashlib.sha256(canonical(name, settings)).hexdigest()
    return str(uuid.uuid5(IDS, f"{seed_commitment}/{digest}"))


def check_actions(actions: list[Action], entrants: list[Entrant], rounds: int) -> None:
    """Refuse actions naming no entrant, a round not played or a withdrawal the entrants do
    not show; each withdrawn entrant has its withdrawal."""
    known = {e.number: e for e in entrants}
    for a in actions:
        if a.entrant is not None and a.entrant not in known:
            raise TournamentError(f"a {a.kind} names entrant {a.entrant}, who is not registered")
        if not 0 <= a.round <= rounds and a.kind not in ("bye", "late_entry"):
            raise TournamentError(f"a {a.kind} names round {a.round}; rounds played: {rounds}")
        if a.kind == "withdraw" and a.entrant is not None:
            if known[a.entrant].withdrew_after != a.round:
                raise TournamentError(f"entrant {a.entrant} withdrew after round {a.round} by "
                                      f"the actions, after {known[a.entrant].withdrew_after} by "
                                      "the entrants")
    late = sorted((a.entrant, a.round) for a in actions if a.kind == "late_entry")
    if late != sorted((e.number, e.first_round) for e in entrants if e.first_round != 1):
        raise TournamentError("the late entries of the actions and of the entrants differ")
    asked = sorted((a.entrant, a.round) for a in actions if a.kind == "bye")
    if asked != sorted((e.number, r) for e in entrants for r in e.byes_requested):
        raise TournamentError("the requested byes of the actions and of the entrants differ")
    recorded = {a.entrant for a in actions if a.kind == "withdraw"}
    for e in entrants:
        if e.withdrew_after is not None and e.number not in recorded:
            raise TournamentError(f"entrant {e.number} is withdrawn with no withdrawal recorded")


def overridden(actions: list[Action], round_number: int) -> Action | None:
    """The organizer's override of a round's pairing, if it made one."""
    return next((a for a in actions if a.kind == "override" and a.round == round_number), None)


def check_override(settings: Settings, entrants: list[Entrant], pairing: Pairing) -> None:
    """Refuse an organizer's pairing that a Swiss round could not have: every entrant still in
    seated once (at a table of the tournament's size) or given a bye, nobody else."""
    if settings.format != "swiss":
        raise TournamentError(f"only a Swiss round may be paired by hand, not {settings.format}"
                              " (its schedule or bracket follows from its own pairings)")
    playing = sorted(e.number for e in active(entrants, pairing.round))
    seated = [n for t in pairing.tables for n in t.seats] + list(pairing.byes)
    if sorted(seated) != playing:
        raise TournamentError(f"a round by hand seats every entrant still in exactly once "
                              f"(at a table or with a bye): {playing}, not {sorted(seated)}")
    for i, table in enumerate(pairing.tables, start=1):
        if table.number != i or len(table.seats) != settings.table_size:
            raise TournamentError(f"table {i} must be numbered {i} and seat "
                                  f"{settings.table_size}")
    if len(pairing.byes) >= settings.table_size:
        raise TournamentError(f"{len(pairing.byes)} byes would fill a table")
