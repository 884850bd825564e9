"""Checking a match without trusting the server: the commitment, every hash, every event re-decided.

Pure: takes a parsed export document (projections.export.MatchExport), returns a Report. The
checks follow docs/fairness.md section 4; the first failure stops the walk and is reported with
the event it concerns and what was expected against what was found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec

from domain.core import match
from domain.core.chain import GENESIS, link
from domain.core.codec import as_typed, encode, recorded_command_decoder
from domain.core.decider import Game
from domain.core.errors import RuleViolation
from domain.core.rng import mix_seeds
from domain.games import RULEBOOKS
from projections.export import (
    READABLE_VERSIONS,
    Event,
    Header,
    MatchExport,
    Recorded,
    Result,
)

Check = Literal["format", "rules", "commitment", "chain", "replay", "header", "result"]
OPENING = (
    "game",
    "rules_version",
    "seats",
    "options",
    "practice",
    "tournament",
    "label",
    "seed_commitment",
)


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing found wrong: which check, which event (None: the header), and how."""

    check: Check
    version: int | None
    message: str
    expected: str | None = None
    found: str | None = None


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """The verdict on one match; ``ok`` only when every check in ``checked`` passed."""

    match_id: str
    game: str
    rules_version: str
    ok: bool
    seed_published: bool
    events: int
    checked: list[Check]
    match_seed: str | None = None
    head_hash: str | None = None
    problem: Problem | None = None


class Divergence(Exception):
    """Raised inside the walk to stop at the first problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def fail(check: Check, message: str, version: int | None = None, **shown: str | None) -> None:
    """Stop the verification with a problem."""
    raise Divergence(Problem(check=check, version=version, message=message, **shown))


def verify(document: MatchExport, rulebooks: Mapping[tuple[str, str], Game] = RULEBOOKS) -> Report:
    """Run every check on a finished match's export."""
    header, checked = document.header, []
    try:
        _check_format(document)
        game = rules_for(header, rulebooks)
        checked += ["format", "rules"]
        seed = _check_commitment(header)
        checked.append("commitment")
        state, head = replay(game, document, seed)
        checked += ["chain", "replay"]
        _check_header(game, document, state, head)
        checked += ["header", "result"]
    except Divergence as divergence:
        return _report(document, checked, problem=divergence.problem)
    return _report(
        document,
        checked,
        match_seed=mix_seeds(seed, state.client_seeds).hex(),
        head_hash=head.hex(),
    )


def _report(document: MatchExport, checked: list[Any], **found: Any) -> Report:
    """The report of one match."""
    header = document.header
    return Report(
        match_id=header.match_id,
        game=header.game,
        rules_version=header.rules_version,
        ok=found.get("problem") is None,
        seed_published=True,
        events=len(document.events),
        checked=checked,
        **found,
    )


def _check_format(document: MatchExport) -> None:
    """A format version this verifier reads, and at least the first event."""
    if document.header.format_version not in READABLE_VERSIONS:
        fail(
            "format",
            f"export format version {document.header.format_version} is unknown "
            f"to this verifier (it reads versions {', '.join(map(str, READABLE_VERSIONS))})",
        )
    if not document.events:
        fail("format", "the export holds no events")


def rules_for(header: Header, rulebooks: Mapping[tuple[str, str], Game]) -> Game:
    """The rules the match was played under; refuses a version this release does not carry."""
    game = rulebooks.get((header.game, header.rules_version))
    if game is not None:
        return game
    known = sorted(version for game_id, version in rulebooks if game_id == header.game)
    if not known:
        fail("rules", f"unknown game {header.game!r}: this verifier cannot re-run it")
    fail(
        "rules",
        f"{header.game} rules version {header.rules_version} is unknown to this "
        f"verifier (it carries version {', '.join(known)}); refusing to re-rule the "
        "match under other rules",
    )
    raise AssertionError("unreachable")


def _check_commitment(header: Header) -> bytes:
    """sha256(server seed) must equal the commitment published at creation."""
    try:
        seed = bytes.fromhex(header.server_seed)
    except ValueError:
        fail("commitment", "the server seed is not hex")
    digest = hashlib.sha256(seed).hexdigest()
    if digest != header.seed_commitment:
        fail(
            "commitment",
            "sha256(server seed) does not match the seed commitment",
            expected=header.seed_commitment,
            found=digest,
        )
    return seed


def replay(game: Game, document: MatchExport, seed: bytes) -> tuple[match.MatchState, bytes]:
    """Re-decide every recorded command from the start; the final state and the head hash."""
    walk = _Walk(document.events)
    created = _created(document)
    walk.expect(encode(created), cause=None)
    state: match.MatchState = match.evolve(game, None, created)
    while not walk.done():
        start = walk.position + 1
        seat, command = _command(game, walk.next_event(), start)
        try:
            produced, state = match.decide_and_evolve(game, state, seat, command, seed)
        except RuleViolation as refusal:
            fail(
                "replay",
                f"event {start}: the rules refuse the recorded command ({refusal.message})",
                start,
                found=_json(command),
            )
        except Exception as error:  # a forged command must not crash the verifier
            fail(
                "replay",
                f"event {start}: the rules cannot run the recorded command ({error!r})",
                start,
                found=_json(command),
            )
        for event in produced:
            walk.expect(encode(event), cause=start)
    return state, walk.previous


class _Walk:
    """A cursor over the recorded events: each one's place, content and hash, checked in turn."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events, self.position, self.previous = events, 0, GENESIS

    def done(self) -> bool:
        """Whether every recorded event was matched."""
        return self.position >= len(self.events)

    def next_event(self) -> Event:
        """The next recorded event (the walk is not done), checked to stand in its place."""
        event = self.events[self.position]
        if event.version != self.position + 1:
            fail(
                "chain",
                f"expected event {self.position + 1} here, found event {event.version} "
                "(an event is missing or out of order)",
                self.position + 1,
                expected=str(self.position + 1),
                found=str(event.version),
            )
        return event

    def expect(self, produced: bytes, cause: int | None) -> None:
        """The next recorded event must be ``produced``, in its place, chained to the last."""
        version = self.position + 1
        if self.done():
            fail(
                "replay",
                f"event {version} is missing: the rules produce it but the history ends",
                version,
                expected=produced.decode(),
            )
        event = self.next_event()
        data = bytes(event.data)
        found = data if produced == data else canonical(event)
        if produced != found:
            fail(
                "replay",
                f"event {version} differs from what the rules produce",
                version,
                expected=produced.decode(),
                found=found.decode(),
            )
        if cause is not None and version != cause and event.metadata.command is not None:
            fail(
                "replay",
                f"event {version} is recorded as a new command, but the rules produce "
                f"it from the command at event {cause}",
                version,
            )
        self.previous = _chained(event, version, self.previous, found)
        self.position += 1


def _chained(event: Event, version: int, previous: bytes, data: bytes) -> bytes:
    """Check an event's hash against the chain so far; return it."""
    computed = link(previous, data)
    if computed.hex() != event.hash:
        fail(
            "chain",
            f"event {version}'s hash is not sha256(hash {version - 1} || its data): the "
            "hash was altered",
            version,
            expected=computed.hex(),
            found=event.hash,
        )
    return computed


def canonical(event: Event) -> bytes:
    """The event's canonical bytes: its data as compact JSON, keys in the order given.

    The server embeds them verbatim; re-encoding also accepts an export that was re-indented.
    """
    return msgspec.json.encode(msgspec.json.decode(event.data))


def _created(document: MatchExport) -> match.MatchCreated:
    """The first event, which must open the match the header describes."""
    data = bytes(document.events[0].data)
    try:
        created = msgspec.json.decode(data, type=match.MatchCreated)
    except msgspec.DecodeError as error:
        fail("replay", f"event 1 is not a match_created event ({error})", 1, found=data.decode())
    for field in OPENING:
        _same("header", field, getattr(created, field), getattr(document.header, field), 1)
    return created


def _command(game: Game, event: Event, version: int) -> tuple[int | None, Any]:
    """The seat and the typed command recorded on the first event of a batch."""
    recorded = event.metadata.command
    if recorded is None:
        fail(
            "replay",
            f"event {version} is not produced by the command before it and records "
            "no command of its own",
            version,
            found=bytes(event.data).decode(),
        )
    try:
        command = as_typed(recorded_command_decoder(game), recorded)
    except msgspec.ValidationError as error:
        fail(
            "replay",
            f"event {version} records a command the rules do not know: {error}",
            version,
            found=_json(recorded),
        )
    return event.metadata.seat, command


def _check_header(game: Game, document: MatchExport, state: Any, head: bytes) -> None:
    """The header's players, client seeds, result and head hash agree with the replay."""
    header = document.header
    names = [(p.seat, p.name, p.bot) for p in header.players]
    replayed = [(seat, name, match.bot_of(state, seat)) for seat, name in enumerate(state.names)]
    _same("header", "players", replayed, names)
    _same("header", "client seeds", list(state.client_seeds), header.client_seeds)
    _same("header", "head hash", head.hex(), header.head_hash)
    _same("header", "event count", len(document.events), header.version)
    outcome = match.outcome(game, state)
    if outcome is None:
        fail("result", "the history ends before the match does")
    replayed = msgspec.convert(msgspec.to_builtins(outcome), Result)
    _same("result", "result", replayed, header.result)


def _same(check: Check, what: str, expected: Any, found: Any, version: int | None = None) -> None:
    """Fail unless the header's value equals the replay's (or event ``version``'s)."""
    if expected != found:
        source = "the replay" if version is None else f"event {version}"
        fail(
            check,
            f"{what}: the header does not match {source}",
            version,
            expected=_json(expected),
            found=_json(found),
        )


def _json(value: Any) -> str:
    """A value shown in a report."""
    return msgspec.json.encode(value).decode()


def verify_chain(
    *, match_id: str, game: str, rules_version: str, events: Sequence[Recorded]
) -> Report:
    """A running match's check: the hash chain only, showing no hash (the seed is still secret)."""
    previous = GENESIS
    for number, event in enumerate(events, start=1):
        previous = link(previous, event.data)
        if event.version != number or previous != event.hash:
            problem = Problem(
                check="chain", version=number, message=f"the hash chain breaks at event {number}"
            )
            return Report(
                match_id=match_id,
                game=game,
                rules_version=rules_version,
                ok=False,
                seed_published=False,
                events=len(events),
                checked=[],
                problem=problem,
            )
    return Report(
        match_id=match_id,
        game=game,
        rules_version=rules_version,
        ok=True,
        seed_published=False,
        events=len(events),
        checked=["chain"],
    )
