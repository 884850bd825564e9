"""The pure rules of players at a table (domain.core.match): a rated match is never practice,
every seat of a rated match is a player's or a server bot's, a player takes one seat a table,
and the new fields leave every existing event's bytes as they were."""

from __future__ import annotations

import msgspec
import pytest

from domain.core import match
from domain.core.codec import encode
from domain.core.errors import RuleViolation
from domain.core.match import JoinSeat, MatchCreated, SeatJoined
from domain.games import GAMES

GAME = GAMES["wick-and-ember"]
SEED = b"\x01" * 32
ASH, BRYN = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"


def lobby(*, rated: bool = False, seats: int = 3) -> match.Lobby:
    """Given a new match of Wick & Ember, rated or not."""
    created = match.open_match(GAME, seats=seats, options={}, practice=False, tournament=None,
                               label=None, seed_commitment="c" * 64, rated=rated)
    return match.evolve(GAME, None, created)


def joined(state: match.Lobby, command: JoinSeat) -> match.Lobby:
    """When a seat is taken: the state after its event."""
    return match.fold(GAME, match.decide(GAME, state, None, command, SEED), state)


def test_a_rated_match_records_it_and_an_unrated_one_encodes_as_before():
    rated, casual = lobby(rated=True).created, lobby().created

    assert rated.rated is True and match.rated(lobby(rated=True))
    assert casual.rated is msgspec.UNSET and b"rated" not in encode(casual)


def test_a_practice_match_cannot_be_rated():
    with pytest.raises(RuleViolation, match="practice match cannot be rated"):
        match.open_match(GAME, seats=2, options={}, practice=True, tournament=None, label=None,
                         seed_commitment="c" * 64, rated=True)


def test_a_player_taking_a_seat_is_recorded_in_the_event_and_the_state():
    events = match.decide(GAME, lobby(), None, JoinSeat(name="Ash", player=ASH), SEED)

    assert events == [SeatJoined(seat=0, name="Ash", player=ASH)]
    state = match.fold(GAME, events, lobby())
    assert state.players == (ASH,) and match.player_of(state, 0) == ASH


def test_an_anonymous_seat_encodes_byte_for_byte_as_before():
    (event,) = match.decide(GAME, lobby(), None, JoinSeat(name="Ash"), SEED)

    assert encode(event) == b'{"type":"seat_joined","seat":0,"name":"Ash","client_seed":null}'
    assert match.player_of(joined(lobby(), JoinSeat(name="Ash")), 0) is None


def test_a_player_takes_at_most_one_seat_at_a_table():
    state = joined(lobby(), JoinSeat(name="Ash", player=ASH))

    with pytest.raises(RuleViolation, match="already holds seat 0"):
        match.decide(GAME, state, None, JoinSeat(name="Ash again", player=ASH), SEED)


def test_a_rated_match_refuses_an_anonymous_seat_but_takes_a_player_and_a_bot():
    state = lobby(rated=True)

    with pytest.raises(RuleViolation, match="this match is rated"):
        match.decide(GAME, state, None, JoinSeat(name="Ash"), SEED)
    state = joined(joined(state, JoinSeat(name="Ash", player=ASH)), JoinSeat(name="", bot="random"))
    assert state.players == (ASH, None) and state.bots == (None, "random")


def test_a_bot_seat_is_never_a_players():
    with pytest.raises(RuleViolation, match="bot's seat cannot also be a player's"):
        match.decide(GAME, lobby(), None, JoinSeat(name="", bot="random", player=BRYN), SEED)


def test_the_players_stay_with_the_table_once_play_begins():
    state = joined(joined(lobby(seats=2), JoinSeat(name="Ash", player=ASH)),
                   JoinSeat(name="Bryn"))

    table = match.fold(GAME, match.decide(GAME, state, None, match.StartMatch(), SEED), state)

    assert isinstance(table, match.Table) and table.players == (ASH, None)


def test_old_events_decode_without_the_new_fields():
    created = msgspec.json.decode(encode(lobby().created), type=MatchCreated)
    seat = msgspec.json.decode(b'{"type":"seat_joined","seat":0,"name":"Ash","client_seed":null}',
                               type=SeatJoined)

    assert created.rated is msgspec.UNSET and seat.player is msgspec.UNSET
