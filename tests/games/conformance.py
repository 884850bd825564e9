"""The conformance checks every registered rulebook must pass (docs/conformance.md).

Each check takes a rulebook and a random finished match of it (tests.replay.random_matches: the
lobby, seats, the start and random legal commands, driven through domain.core.match and recorded
as the server records them) and returns the problems it found, an empty list when there are
none, so a test can show that a check fails on a broken rulebook as well as pass on a sound one.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import msgspec

from domain.core import match
from domain.core.codec import (
    as_typed,
    command_decoder,
    encode,
    event_decoder,
    recorded_command_decoder,
)
from domain.core.decider import Concede, Rulebook
from domain.core.errors import RuleViolation
from projections.export import decode_export, encode_export
from projections.log import event_lines
from projections.verify import verify
from service import views
from service.exports import seat_views
from service.loading import Loaded, kept_times
from service.store import MatchRow, snapshots
from tests.replay.random_matches import Played, exported, play

TRIED = 6  # offered actions tried (and commands not offered) per seat and state
MAX_PROBLEMS = 5  # a broken rulebook fails loudly, not with thousands of lines


class Batch(NamedTuple):
    """One recorded command and what it did: the state before, the seat, the events, after."""

    before: match.MatchState | None
    seat: int | None
    command: Any
    events: list[Any]
    after: match.MatchState


def random_match(game: Rulebook, index: int) -> Played:
    """Random finished match ``index`` of a rulebook (raises if it does not end in time)."""
    return play(index, game=game)


def batches(game: Rulebook, played: Played) -> Iterator[Batch]:
    """The match command by command, folded from its stored events."""
    decode_event, decode_command = event_decoder(game), recorded_command_decoder(game)
    state: match.MatchState | None = None
    pending: list[Any] = []
    for stored in played.events:
        if pending and "command" in stored.metadata:
            yield _batch(game, state, pending, decode_command)
            state = match.fold(game, [decode_event.decode(e.data) for e in pending], state)
            pending = []
        pending.append(stored)
    yield _batch(game, state, pending, decode_command)


def _batch(game: Rulebook, before: Any, stored: list[Any], decode_command: Any) -> Batch:
    """One batch of stored events, typed."""
    events = [event_decoder(game).decode(e.data) for e in stored]
    recorded = stored[0].metadata.get("command")
    command = None if recorded is None else decode_command.decode(encode(recorded))
    after = match.fold(game, events, before)
    return Batch(before, stored[0].metadata.get("seat"), command, events, after)


def tables(game: Rulebook, played: Played) -> Iterator[match.Table]:
    """Every state a command left the match in once play began."""
    for batch in batches(game, played):
        if isinstance(batch.after, match.Table):
            yield batch.after


def capped(found: list[str]) -> list[str]:
    """The first few problems only."""
    return found[:MAX_PROBLEMS]


def check_play(game: Rulebook, index: int, played: Played | None = None) -> list[str]:
    """Random legal play: the match ends, every offered action is accepted, every command not
    offered is refused and changes nothing, legal actions are deterministic and empty exactly
    when the seat owes nothing, and decide's own state is the fold of its events (over random
    match ``index``, or ``played`` when it is that match played already)."""
    try:
        played = played or random_match(game, index)
    except Exception as error:  # a broken rulebook may raise anywhere; that is the finding
        return [f"match {index} could not be played to its end: {error!r}"]
    chooser, found = random.Random(index), []
    for batch in batches(game, played):
        found += _decided_state(game, batch, played.server_seed)
        if isinstance(batch.after, match.Table) and match.outcome(game, batch.after) is None:
            found += _offers(game, batch.after, played.server_seed, chooser)
        if len(found) >= MAX_PROBLEMS:
            break
    return capped(found)


def _decided_state(game: Rulebook, batch: Batch, seed: bytes) -> list[str]:
    """The state decide reaches through its steps is the plain fold of the events it returns."""
    if batch.before is None or batch.command is None:
        return []
    events, state = match.decide_and_evolve(game, batch.before, batch.seat, batch.command, seed)
    if state != match.fold(game, events, batch.before):
        return [f"{type(batch.command).__name__}: decide's state is not the fold of its events"]
    return []


def _offers(game: Rulebook, table: match.Table, seed: bytes, chooser: random.Random) -> list[str]:
    """Every seat's offers at one state: accepted when offered, refused when not."""
    found, waiting = [], game.acting(table.game)
    if not set(game.to_act(table.game)) <= set(waiting):
        found.append(f"to_act {game.to_act(table.game)} is not within may_act {waiting}")
    offered = {seat: game.legal_actions(table.game, seat) for seat in range(table.created.seats)}
    for seat, actions in offered.items():
        again = game.legal_actions(match.fold(game, [], table).game, seat)
        if encode(actions) != encode(again):
            found.append(f"seat {seat}: legal_actions differ between two calls")
        if len({encode(a) for a in actions}) != len(actions):
            found.append(f"seat {seat}: legal_actions lists an action twice")
        if bool(actions) != (seat in waiting):
            found.append(f"seat {seat}: {len(actions)} legal actions but may_act is {waiting}")
        for action in chooser.sample(actions, min(TRIED, len(actions))):
            found += _accepted(game, table, seat, action, seed)
        for command in _not_offered(game, offered, seat, chooser):
            found += _refused(game, table, seat, command, seed)
    return found


def _accepted(game: Rulebook, table: match.Table, seat: int, action: Any, seed: bytes) -> list[str]:
    """An offered action is decided without a refusal or an error."""
    try:
        events = match.decide(game, table, seat, action, seed)
        match.fold(game, events, table)
    except Exception as error:
        return [f"seat {seat}: the offered {encode(action).decode()} raised {error!r}"]
    return []


def _not_offered(
    game: Rulebook, offered: dict[int, list[Any]], seat: int, chooser: random.Random
) -> list[Any]:
    """Commands the seat is not offered: other seats' actions, mangled ones, the lobby's."""
    mine = {encode(action) for action in offered[seat]}
    others = [a for other, actions in offered.items() if other != seat for a in actions]
    mangled = [m for action in offered[seat] for m in _mangled(game, action)]
    pool = [c for c in [*others, *mangled] if encode(c) not in mine and not isinstance(c, Concede)]
    lobby = [match.JoinSeat(name="Late"), match.StartMatch()]
    return lobby + chooser.sample(pool, min(TRIED, len(pool)))


def _mangled(game: Rulebook, action: Any) -> list[Any]:
    """The action with one field made nonsense (a seat or count out of range, an unknown name),
    kept only where the game's command decoder lets it through, as the API would."""
    found, decoder = [], command_decoder(game)
    for name, value in msgspec.structs.asdict(action).items():
        if isinstance(value, bool) or not isinstance(value, int | str):
            continue
        nonsense = -1 if isinstance(value, int) else "no-such-thing"
        try:
            found.append(as_typed(decoder, {**msgspec.to_builtins(action), name: nonsense}))
        except msgspec.ValidationError:
            continue  # refused by the decoder (a 422) before the rules see it
    return found


def _refused(game: Rulebook, table: match.Table, seat: int, command: Any, seed: bytes) -> list[str]:
    """A command not offered is refused with RuleViolation and leaves the state as it was."""
    before = msgspec.msgpack.encode(table)
    shown = encode(command).decode()
    try:
        match.decide(game, table, seat, command, seed)
    except RuleViolation:
        if msgspec.msgpack.encode(table) != before:
            return [f"seat {seat}: refusing {shown} changed the state"]
        return []
    except Exception as error:
        return [f"seat {seat}: {shown} raised {error!r} instead of a RuleViolation"]
    return [f"seat {seat}: {shown} was not offered but was accepted"]


def check_determinism(game: Rulebook, index: int, played: Played | None = None) -> list[str]:
    """The same seed and commands give the same events, byte for byte: match ``index`` played
    twice (or ``played``, that match played already, against one more run)."""
    try:
        first, second = played or random_match(game, index), random_match(game, index)
    except Exception as error:
        return [f"match {index} could not be played to its end: {error!r}"]
    ours = [(e.type, e.data, e.hash) for e in first.events]
    theirs = [(e.type, e.data, e.hash) for e in second.events]
    if ours == theirs:
        return []
    at = next((n for n, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    return [f"match {index}: two runs of the same seed and commands differ from event {at + 1}"]


def check_codecs(game: Rulebook, played: Played) -> list[str]:
    """Every event, command and view decodes from its bytes back to an equal value."""
    found: list[str] = []
    events, commands = event_decoder(game), recorded_command_decoder(game)
    views = msgspec.json.Decoder(game.View)
    for batch in batches(game, played):
        found += [f"event {e!r}" for e in batch.events if events.decode(encode(e)) != e]
        if batch.command is not None and commands.decode(encode(batch.command)) != batch.command:
            found.append(f"command {batch.command!r}")
        if isinstance(batch.after, match.Table):
            state = batch.after
            for seat in range(state.created.seats):
                actions = game.legal_actions(state.game, seat)
                found += [f"command {a!r}" for a in actions if commands.decode(encode(a)) != a]
            for viewer in [None, *range(state.created.seats)]:
                view = game.observe(state.game, viewer)
                if views.decode(encode(view)) != view:
                    found.append(f"the view of {viewer} does not survive its encoding")
    return capped([f"does not round-trip: {problem}" for problem in found])


def check_shared_views(game: Rulebook, played: Played) -> list[str]:
    """Every seat's view made from the spectator's (``Rulebook.observed``, as a feed shapes each
    change's updates) is byte for byte the one observed afresh."""
    found: list[str] = []
    for batch in batches(game, played):
        if not isinstance(batch.after, match.Table):
            continue
        state = batch.after.game
        public = game.observe(state, None)
        for seat in range(batch.after.created.seats):
            if encode(game.observed(state, seat, public)) != encode(game.observe(state, seat)):
                found.append(f"seat {seat}'s view made from the spectator's differs at version "
                             f"{batch.after.version}")
    return capped(found)


def shows(secrets: frozenset[str], text: str) -> list[str]:
    """The secrets a text mentions as whole words ('whiteout' is not in 'whiteout-road')."""
    return sorted(s for s in secrets if s in text and _word(s).search(text))


@functools.lru_cache(maxsize=4096)
def _word(secret: str) -> re.Pattern[str]:
    """An expression finding one secret as a whole word."""
    return re.compile(rf"(?<![\w-]){re.escape(secret)}(?![\w-])")


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON-shaped value (dictionary keys are field names, not shown values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def secrets_of(game: Rulebook, state: Any, seat: int | None) -> frozenset[str]:
    """What the game says the reader may not see in a match state (nothing in the lobby)."""
    assert game.secrets is not None
    if not isinstance(state, match.Table):
        return frozenset()
    return game.secrets(state.game, seat)


def check_leaks(game: Rulebook, played: Played) -> list[str]:
    """No view and no log line (private lines included) of any seat or the spectator shows a
    value the game's ``secrets`` says that reader may not see."""
    if game.secrets is None:
        return [f"{game.id} rules version {game.rules_version} does not state what each seat may "
                "know: give its Rulebook `secrets=` (docs/conformance.md)"]
    found: list[str] = []
    version = 0
    for batch in batches(game, played):
        before = batch.before
        for event in batch.events:
            version += 1
            after = match.evolve(game, before, event)
            found += _line_leaks(game, (batch.before, before, after), event, version)
            before = after
        if isinstance(batch.after, match.Table):
            found += _view_leaks(game, batch.after)
        if len(found) >= MAX_PROBLEMS:
            break
    return capped(found)


def _readers(state: Any) -> list[int | None]:
    """The spectator and every seat."""
    return [None, *range(state.created.seats)]


def _view_leaks(game: Rulebook, state: match.Table) -> list[str]:
    """Secrets shown in any reader's view of a state."""
    found = []
    for reader in _readers(state):
        text = "\n".join(strings(msgspec.to_builtins(game.observe(state.game, reader))))
        for secret in shows(secrets_of(game, state, reader), text):
            found.append(f"the view of {_who(reader)} shows {secret!r}")
    return found


def _line_leaks(game: Rulebook, states: tuple[Any, ...], event: Any, version: int) -> list[str]:
    """Secrets in the lines each reader may read of an event: the values hidden from the reader
    when the command was sent, just before the event and just after it (``states``)."""
    found = []
    sent, before, after = states
    for reader in _readers(after):
        for line in event_lines(game, before, event, version, reader):
            if reader is None and line.private:
                found.append(f"event {version}: the public log holds a private line")
            hits = shows(secrets_of(game, after, reader), line.text)
            earlier = (secrets_of(game, sent, reader) & secrets_of(game, before, reader)) if hits else ()
            for secret in (hit for hit in hits if hit in earlier):
                found.append(f"event {version}: {_who(reader)} reads {secret!r} in {line.text!r}")
    return found


def _who(reader: int | None) -> str:
    """A reader, for a message."""
    return "the spectator" if reader is None else f"seat {reader}"


def check_snapshots(game: Rulebook, played: Played) -> list[str]:
    """Every state a command leaves the match in survives the snapshot encoding; a game whose
    state lives outside the domain package (a test game) is never snapshotted, only folded."""
    found = []
    for batch in batches(game, played):
        data = snapshots.encode(batch.after)
        if _outside_domain(batch.after):
            if data is not None:
                found.append("a state from outside the domain package was snapshotted")
        elif data is None or snapshots.decode(data) != batch.after:
            found.append(f"the state after {type(batch.events[-1]).__name__} is not restored")
    return capped(found)


def in_domain(book: Rulebook) -> bool:
    """Whether a rulebook is one of the domain package's games (what `hearthlog serve` plays),
    not a test game's."""
    return type(book.initial).__module__.startswith("domain.")


def _outside_domain(state: Any) -> bool:
    """Whether a match state holds a game state whose class is not the domain package's."""
    held = getattr(state, "game", None)
    return held is not None and not type(held).__module__.startswith("domain.")


def check_export(game: Rulebook, played: Played) -> list[str]:
    """The export of the finished match passes the offline verifier under these rules."""
    document = decode_export(encode_export(exported(played)))
    report = verify(document, {(game.id, game.rules_version): game})
    if report.ok:
        return []
    return [f"the export does not verify: {report.problem}"]


def check_replay(game: Rulebook, played: Played) -> list[str]:
    """At every version a command left the match at, each seat's past view as the service
    replays it (service.exports.seat_views over projections.replay) is the view it was served then
    (from the state decide reached, as the service's cache holds it)."""
    found: list[str] = []
    row, served, version, times = _row(game, played), None, 0, {}
    for batch in batches(game, played):
        first, version = version, version + len(batch.events)
        served = batch.after if served is None else match.decide_and_evolve(
            game, served, batch.seat, batch.command, played.server_seed)[1]
        recorded = played.events[first:version]
        times = kept_times(served, times, ((e.version, e.recorded_at) for e in recorded))
        if not match.dealt(game, batch.after):
            continue
        at = played.events[version - 1].recorded_at
        loaded = Loaded(row=row, game=game, state=served, version=version, times=times)
        readers = _readers(served)
        replayed = seat_views(row, game, played.events[:version], readers)
        for reader, again in zip(readers, replayed, strict=True):
            then = views.match_view(loaded, reader, last_event_at=at)
            if encode(then) != encode(again):
                found.append(f"version {version}: {_who(reader)}'s replayed view differs")
        if len(found) >= MAX_PROBLEMS:
            break
    return capped(found)


def _row(game: Rulebook, played: Played) -> MatchRow:
    """The match's row as the store would hold it once finished."""
    first = msgspec.json.decode(played.events[0].data)
    return MatchRow(
        match_id=played.match_id, game=game.id, rules_version=game.rules_version,
        status="finished", seats=first["seats"], seats_taken=first["seats"], practice=False,
        tournament=None, label=first.get("label"), version=len(played.events),
        head_hash=played.events[-1].hash, seed_commitment=first["seed_commitment"],
        summary=played.summary, created_at=played.created_at, updated_at=played.finished_at,
        finished_at=played.finished_at,
    )
