"""Replays: the state at any version, each seat's past view, and a finished match's full replay."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from domain.core import match
from domain.wick_ember import cards
from projections.replay import full_replay, state_at
from tests import sampling
from tests.replay.random_matches import GAME, play

PER_CHUNK = 30
BUDGET, FULL = 4, 40  # chunks of random matches: 120 a run, 1,200 under `make sample-all`
LEAK_BUDGET, LEAK_FULL = 20, 200
TAGGED = re.compile(r"#(\d+)")


def seat_views(state: match.MatchState) -> dict[int | None, bytes]:
    """What each seat and the spectator are shown of a state (nothing before the first deal)."""
    if not match.dealt(GAME, state):
        return {}
    seats = [None, *range(state.created.seats)]
    return {seat: msgspec.json.encode(GAME.observe(state.game, seat)) for seat in seats}


def served_views(index: int) -> tuple[Any, dict[int, dict[int | None, bytes]]]:
    """A random match and every view its seats could be served after each command."""
    served: dict[int, dict[int | None, bytes]] = {}
    played = play(
        index, on_batch=lambda version, state: served.update({version: seat_views(state)})
    )
    return played, served


@sampling.MARK
@pytest.mark.parametrize("chunk", sampling.samples(BUDGET, FULL))
def test_given_random_matches_when_replayed_to_a_served_version_then_each_seat_sees_its_view(chunk):
    """At every version a command left the match at, the replay's view of each seat (and the
    spectator's) is byte for byte the view that was served then."""
    for index in sampling.chunk(chunk, PER_CHUNK):
        played, served = served_views(index)
        for version, views in served.items():
            assert seat_views(state_at(GAME, played.events[:version])) == views, (index, version)


@pytest.fixture
def tagged_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card leaving the rules carries its identity, so an unknowable card shows."""
    monkeypatch.setattr(cards, "shown_name", lambda card: f"{cards.name_of(card)}#{card}")
    monkeypatch.setattr(
        cards, "shown_title", lambda card: f"{cards.TITLES[cards.name_of(card)]}#{card}"
    )


def knowable(table: Any, seat: int | None) -> set[int]:
    """The card identities a seat (or the spectator) may know in a Wick & Ember state."""
    now = table.round
    if now is None:
        return set()
    known = {*now.ash, *now.face_up, *(card for card in now.dawn if card is not None)}
    known |= {card for lamp in table.seats for card in lamp.log}
    if now.set_aside_shown and now.set_aside is not None:
        known.add(now.set_aside)
    if seat is not None:
        known |= set(table.seats[seat].hand) | {n.card for n in now.notes if n.looker == seat}
    return known


@sampling.MARK
def test_given_any_version_of_random_matches_then_no_replayed_view_shows_an_unknowable_card(
    tagged_cards,
):
    """For every event of 20 matches, each seat's replayed view names only cards it knew then."""
    for index in map(sampling.index, sampling.samples(LEAK_BUDGET, LEAK_FULL)):
        events = play(index).events
        for version in range(1, len(events) + 1):
            state = state_at(GAME, events[:version])
            for seat, view in seat_views(state).items():
                shown = {int(card) for card in TAGGED.findall(view.decode())}
                assert shown <= knowable(state.game, seat), (index, version, seat)


def test_the_knowledge_check_catches_a_view_of_the_final_state_shown_at_an_early_version(
    tagged_cards,
):
    """The check can fail: the last state's views name cards nobody knew at the first turn."""
    events = play(0).events
    early = next(e.version for e in events if e.type == "turn_began")
    then, final = state_at(GAME, events[:early]), state_at(GAME, events)

    shown = {int(c) for c in TAGGED.findall(seat_views(final)[0].decode())}

    assert not shown <= knowable(then.game, 0)


def test_given_a_finished_match_then_the_full_replay_has_every_event_and_the_state_after_it():
    """Every step carries its number, time, seat and event, the first of a command carries the
    command, and the state is the whole fold (hands and draw pile included)."""
    played = play(3)

    replay = full_replay(GAME, played.match_id, played.server_seed, played.events)

    assert [step.version for step in replay.steps] == list(range(1, len(played.events) + 1))
    for step, event in zip(replay.steps, played.events, strict=True):
        assert (step.type, step.recorded_at, step.seat) == (
            event.type,
            event.recorded_at,
            event.metadata["seat"],
        )
        assert step.event == msgspec.json.decode(event.data)
        assert step.command == event.metadata.get("command")
        expected = msgspec.to_builtins(state_at(GAME, played.events[: step.version]))
        assert step.state == expected
    dealt = next(step for step in replay.steps if step.type == "round_dealt")
    assert list(dealt.state["game"]["round"]["draw_pile"]) == dealt.event["draw_pile"]
    assert all("hand" in seat for seat in replay.steps[-1].state["game"]["seats"])
    assert replay.server_seed == played.server_seed.hex()
