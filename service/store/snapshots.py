"""Snapshots: a match's folded state at one version, stored so a long match loads quickly.

A snapshot is only ever a cache of the fold of the events it summarises, and it is never
trusted over them. It is used only when all of these hold, else the events are folded from the
start: the event at its version still has the chain hash recorded with it (so it summarises
exactly this history); it was written by code with the same fingerprint (a hash of the domain
package's source and data files, so any change to the rules, a card table or the state shapes
retires every snapshot); its checksum matches; and it decodes to a state. It is written only
from a state known to be that fold, and only if that state survives the encoding unchanged.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from pathlib import Path
from typing import Any

import msgspec

from domain.core import match

EVERY = 200  # a snapshot every this many events; a cold load folds at most this many
FORMAT = b"hearthlog-snapshot-v1"
DOMAIN = Path(match.__file__).resolve().parent.parent
RULE_FILES = (".py", ".toml")  # what the fingerprint covers: code, and rules kept as data


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A stored snapshot: the state at ``version``, whose event has chain hash ``hash``."""

    version: int
    hash: bytes
    fingerprint: str
    state: bytes
    checksum: bytes


class _Envelope(msgspec.Struct, array_like=True):
    """The encoded state: Lobby or Table, the game state's class, the fields."""

    phase: str
    game_type: str | None
    fields: msgspec.Raw


@functools.cache
def fingerprint() -> str:
    """A hash of every source and data file of the domain package (a game's card table, such as
    domain/ember/cards.toml, is rules too), and of this format."""
    digest = hashlib.sha256(FORMAT)
    for path in sorted(p for p in DOMAIN.rglob("*") if p.suffix in RULE_FILES):
        digest.update(str(path.relative_to(DOMAIN)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def checksum(print_: str, hash_: bytes, state: bytes) -> bytes:
    """sha256(fingerprint || event hash || state bytes)."""
    return hashlib.sha256(print_.encode() + hash_ + state).digest()


def encode(state: match.MatchState) -> bytes | None:
    """The state's bytes, or None when decoding them would not give back this very state."""
    game = getattr(state, "game", None)
    game_type = None if game is None else f"{type(game).__module__}:{type(game).__qualname__}"
    phase = "table" if isinstance(state, match.Table) else "lobby"
    raw = msgspec.msgpack.encode(state)
    data = msgspec.msgpack.encode(_Envelope(phase, game_type, msgspec.Raw(raw)))
    return data if decode(data) == state else None


def decode(data: bytes) -> match.MatchState | None:
    """The state in a snapshot's bytes, or None when they do not decode to one."""
    try:
        envelope = msgspec.msgpack.decode(data, type=_Envelope)
        if envelope.phase == "lobby":
            return msgspec.msgpack.decode(envelope.fields, type=match.Lobby)
        table = msgspec.msgpack.decode(envelope.fields, type=match.Table)
        if envelope.game_type is None:
            return table
        game = msgspec.convert(table.game, _state_class(envelope.game_type))
        return msgspec.structs.replace(table, game=game)
    except (msgspec.DecodeError, msgspec.ValidationError, LookupError, ImportError):
        return None


def _state_class(path: str) -> type[msgspec.Struct]:
    """A game state class named ``module:qualname``; only a Struct of the domain package."""
    module, _, name = path.partition(":")
    if not module.startswith("domain."):
        raise LookupError(f"{path} is not a domain class")
    found = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and issubclass(found, msgspec.Struct)):
        raise LookupError(f"{path} is not a Struct")
    return found


def restore(snapshot: Snapshot, event_at: Any) -> match.MatchState | None:
    """The snapshot's state if it may be used over ``event_at`` (the event at its version)."""
    if event_at is None or event_at.version != snapshot.version or event_at.hash != snapshot.hash:
        return None
    if snapshot.fingerprint != fingerprint():
        return None
    if checksum(snapshot.fingerprint, snapshot.hash, snapshot.state) != snapshot.checksum:
        return None
    return decode(snapshot.state)


def due(before: int, after: int) -> bool:
    """Whether moving from version ``before`` to ``after`` passed a snapshot point."""
    return after // EVERY > before // EVERY
