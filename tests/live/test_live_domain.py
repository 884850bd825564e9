"""Bots and turn clocks in the pure domain: seating bots, time-outs, and the bots' choices."""

from __future__ import annotations

import msgspec
import pytest

from domain.core import bots, match
from domain.core.codec import encode
from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation
from domain.core.rng import Rng
from domain.registry import rulebooks
from domain.wick_ember.bot import careful
from domain.wick_ember.commands import PlayCard
from projections.log import seat_log
from tests.live.live_support import WICK, apply, bot_move, play_out, seated, seed_of, view


def test_given_a_person_joining_then_the_event_keeps_its_bytes_from_before_bots():
    """Given a person's join, then the event carries no bot field, byte for byte as before."""
    event = match.SeatJoined(seat=0, name="Ash")
    assert encode(event) == b'{"type":"seat_joined","seat":0,"name":"Ash","client_seed":null}'


def test_given_a_match_without_a_clock_then_its_first_event_keeps_its_bytes():
    """Given no turn clock, then MatchCreated encodes exactly as before clocks existed."""
    created = match.open_match(
        WICK, seats=2, options={}, practice=False, tournament=None, label=None, seed_commitment="c"
    )
    assert b"turn_seconds" not in encode(created)
    clocked = msgspec.structs.replace(created, turn_seconds=30)
    assert encode(clocked).endswith(b',"turn_seconds":30}')


def test_given_bots_without_names_when_seated_then_they_are_named_and_marked():
    """Given two unnamed bots, then they are "Bot 1" and "Bot 2", marked in state and log."""
    state, _ = seated(["random", None, "careful"], seed_of(1))
    assert state.names[0] == "Bot 1" and state.names[2] == "Bot 2"
    assert state.bots == ("random", None, "careful")
    events = [msgspec.json.decode(encode(e), type=match.MatchEvent) for e in _lobby(state)]
    lines = [line.text for line in seat_log(WICK, events, None)]
    assert lines[1:4] == [
        "Bot 1 (bot) took seat 0",
        "Person 1 took seat 1",
        "Bot 2 (bot) took seat 2",
    ]


def _lobby(state: match.MatchState) -> list:
    """The lobby events that seat the state's players."""
    return [state.created] + [
        match.SeatJoined(seat=n, name=name, bot=bot if bot else msgspec.UNSET)
        for n, (name, bot) in enumerate(zip(state.names, state.bots, strict=True))
    ]


def test_given_an_unknown_bot_when_seating_it_then_the_message_lists_the_games_bots():
    """Given a bot name the game lacks, then it is refused naming the bots it has."""
    created = match.open_match(
        WICK, seats=2, options={}, practice=False, tournament=None, label=None, seed_commitment="c"
    )
    lobby = match.evolve(WICK, None, created)
    with pytest.raises(RuleViolation, match="its bots: random, careful"):
        match.decide(WICK, lobby, None, match.JoinSeat(name="", bot="genius"), b"s")


def test_given_a_turn_clock_out_of_range_then_the_match_is_refused():
    """Given turn_seconds below 1, then opening the match is refused."""
    with pytest.raises(RuleViolation, match="turn_seconds"):
        match.open_match(
            WICK,
            seats=2,
            options={},
            practice=False,
            tournament=None,
            label=None,
            seed_commitment="c",
            turn_seconds=0,
        )


def test_given_the_seat_to_act_when_it_times_out_then_the_time_out_precedes_the_play():
    """Given a clocked match, when TimeOut plays the seat to act, then SeatTimedOut comes first,
    the game's events for that action follow, and the log says the seat timed out."""
    seed = seed_of(2)
    state, version = seated([None, None], seed, turn_seconds=10)
    seat = WICK.to_act(state.game)[0]
    action = msgspec.to_builtins(bot_move(state, version, seat, seed))
    events = match.decide(WICK, state, None, match.TimeOut(seat=seat, action=action), seed)
    played = match.decide(WICK, state, seat, msgspec.convert(action, WICK.Command), seed)
    assert events == [match.SeatTimedOut(seat=seat), *played]
    stepped = match.evolve(WICK, state, events[0])  # only counted: the play follows
    assert stepped == msgspec.structs.replace(state, version=state.version + 1)
    after, _ = apply(state, version, None, match.TimeOut(seat=seat, action=action), seed)
    assert WICK.to_act(after.game) != (seat,)


@pytest.mark.parametrize("why", ["not to act", "concede", "illegal"])
def test_given_a_bad_time_out_then_it_is_refused(why):
    """Given a seat that owes nothing, a concession, or an illegal action, then it is refused."""
    seed = seed_of(3)
    state, version = seated([None, None], seed, turn_seconds=10)
    seat = WICK.to_act(state.game)[0]
    action = msgspec.to_builtins(bot_move(state, version, seat, seed))
    commands = {
        "not to act": (NotYourTurn, match.TimeOut(seat=1 - seat, action=action)),
        "concede": (RuleViolation, match.TimeOut(seat=seat, action={"type": "concede"})),
        "illegal": (
            RuleViolation,
            match.TimeOut(seat=seat, action={"type": "play", "card": "hearthflame"}),
        ),
    }
    error, command = commands[why]
    with pytest.raises(error):
        match.decide(WICK, state, None, command, seed)


def test_the_random_bot_picks_a_legal_action_the_same_way_for_the_same_version_and_seat():
    """Given a seat to act, then the random bot picks a legal action, reproducibly."""
    seed = seed_of(4)
    state, version = seated(["random", "random"], seed)
    seat = WICK.to_act(state.game)[0]
    first = bot_move(state, version, seat, seed)
    assert first in WICK.legal_actions(state.game, seat)
    assert bot_move(state, version, seat, seed) == first
    assert not isinstance(first, Concede)


def test_every_game_has_the_random_bot_and_wick_and_ember_the_careful_one():
    """The catalogue of bots: random everywhere, careful for Wick & Ember."""
    assert bots.bot_names(WICK) == ("random", "careful")


def stream(n: int):
    """A seeded stream for a crafted choice."""
    return Rng(b"careful").stream("test", n)


def test_careful_never_plays_a_gale_into_a_card_it_knows_is_higher():
    """Given a note that the only other seat holds the Veilkeeper, then the careful bot never
    plays its Gale while keeping a Lensmaker (the Gale would snuff it)."""
    seen = view(("gale", "lensmaker"), notes={1: "veilkeeper"}, seats=2)
    actions = [PlayCard(card="lensmaker", target=1), PlayCard(card="gale", target=1)]
    assert {careful(seen, actions, stream(n)).card for n in range(40)} == {"lensmaker"}


def test_careful_never_plays_the_gale_into_a_known_hearthflame():
    """Given a note that the target holds the Hearthflame, then the Gale is not played."""
    seen = view(("gale", "moth_duchess"), notes={1: "hearthflame"}, seats=2)
    actions = [PlayCard(card="gale", target=1), PlayCard(card="moth_duchess")]
    assert {careful(seen, actions, stream(n)).card for n in range(40)} == {"moth_duchess"}


def test_careful_uses_its_lensmaker_note_for_the_lamp_warden_guess():
    """Given a note that seat 2 holds the Ferrywoman, then the Warden names it on seat 2."""
    seen = view(("lamp_warden", "veilkeeper"), notes={2: "ferrywoman"})
    actions = [
        PlayCard(card="lamp_warden", target=t, guess=g)
        for t in (1, 2)
        for g in ("lensmaker", "gale", "ferrywoman", "hearthflame")
    ]
    actions.append(PlayCard(card="veilkeeper"))
    chosen = {careful(seen, actions, stream(n)) for n in range(40)}
    assert chosen == {PlayCard(card="lamp_warden", target=2, guess="ferrywoman")}


def test_careful_keeps_its_higher_card_when_nothing_is_sure():
    """Given no sure win or loss, then the careful bot plays its lower card."""
    seen = view(("veilkeeper", "lensmaker"))
    actions = [
        PlayCard(card="lensmaker", target=1),
        PlayCard(card="lensmaker", target=2),
        PlayCard(card="veilkeeper"),
    ]
    assert {careful(seen, actions, stream(n)).card for n in range(40)} == {"lensmaker"}


def test_all_bot_matches_end_and_careful_beats_random_over_seeded_matches():
    """Given 40 seeded two-seat matches of careful against random (seats alternating), then
    every match ends and careful wins more of them."""
    wins = {"careful": 0, "random": 0}
    for index in range(40):
        kinds = ["careful", "random"] if index % 2 else ["random", "careful"]
        outcome = match.outcome(WICK, play_out(kinds, seed_of(index)))
        for seat in outcome.winners:
            wins[kinds[seat]] += 1
    assert wins["careful"] > wins["random"]


def test_whiteout_road_is_played_to_its_end_by_random_bots_committing_together():
    """Given Whiteout Road (several seats commit at once, no bot of its own), when every seat
    owing a commitment is played by the random bot, then the match ends; only random is offered."""
    from domain.whiteout_road.game import GAME as ROAD

    seed = seed_of(7)
    opened = match.open_match(
        ROAD, seats=3, options={}, practice=False, tournament=None, label=None, seed_commitment="c"
    )
    state, version, together = match.evolve(ROAD, None, opened), 1, 0
    for command in [*(match.JoinSeat(name="", bot="random") for _ in range(3)), match.StartMatch()]:
        events = match.decide(ROAD, state, None, command, seed)
        state, version = match.fold(ROAD, events, state), version + len(events)
    while match.outcome(ROAD, state) is None:
        waiting = ROAD.to_act(state.game)
        together = max(together, len(waiting))
        stream = bots.bot_stream(match.table_rng(state, seed), version, waiting[0])
        action = bots.choose(ROAD, "random", state.game, waiting[0], stream)
        events = match.decide(ROAD, state, waiting[0], action, seed)
        state, version = match.fold(ROAD, events, state), version + len(events)
    assert together > 1 and bots.bot_names(ROAD) == ("random",)


@pytest.mark.parametrize("game", rulebooks(), ids=lambda book: f"{book.id}-v{book.rules_version}")
def test_given_random_bots_in_every_seat_then_a_match_of_any_game_plays_to_its_end(game):
    """Given each registered rulebook with the random bot in its fewest seats, when the bots
    play, then the match ends with an outcome, each move chosen among the seat's legal ones."""
    state = play_out(["random"] * game.min_seats, seed_of(5), game)
    assert match.outcome(game, state) is not None
    assert state.bots == ("random",) * game.min_seats
