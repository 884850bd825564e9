"""Helpers for the live-play tests: pure matches of any game driven by bots (Wick & Ember unless
a rulebook is given), and crafted Wick & Ember views."""

from __future__ import annotations

import hashlib
from typing import Any

from domain.core import bots, match
from domain.core.decider import Rulebook
from domain.games import GAMES
from domain.registry import lookup
from domain.wick_ember.cards import composition
from domain.wick_ember.observer import NoteView, SeatView

WICK = GAMES["wick-and-ember"]


def seed_of(index: int) -> bytes:
    """A server seed for a numbered test match."""
    return hashlib.sha256(f"live-{index}".encode()).digest()


def rules_of(state: match.MatchState) -> Rulebook:
    """The rulebook a match is played under."""
    return lookup(state.created.game, state.created.rules_version)


def seated(
    kinds: list[str | None], seed: bytes, game: Rulebook = WICK, **created: Any
) -> tuple[match.MatchState, int]:
    """A started match with a bot (or a person, for None) in each seat; its state and version."""
    opened = match.open_match(
        game,
        seats=len(kinds),
        options={},
        practice=False,
        tournament=None,
        label=None,
        seed_commitment="c0ffee",
        **created,
    )
    state, version = match.evolve(game, None, opened), 1
    for n, kind in enumerate(kinds):
        join = match.JoinSeat(name="" if kind else f"Person {n}", bot=kind)
        state, version = apply(state, version, None, join, seed)
    return apply(state, version, None, match.StartMatch(), seed)


def apply(
    state: match.MatchState, version: int, seat: int | None, command: Any, seed: bytes
) -> tuple[match.MatchState, int]:
    """Decide and fold one command."""
    game = rules_of(state)
    events = match.decide(game, state, seat, command, seed)
    return match.fold(game, events, state), version + len(events)


def bot_move(state: match.MatchState, version: int, seat: int, seed: bytes) -> Any:
    """What the seat's bot (random for a person) plays now."""
    stream = bots.bot_stream(match.table_rng(state, seed), version, seat)
    name = match.bot_of(state, seat) or bots.RANDOM
    return bots.choose(rules_of(state), name, state.game, seat, stream)


def play_out(kinds: list[str | None], seed: bytes, game: Rulebook = WICK) -> match.MatchState:
    """A whole match played by bots (random for a person) to its end."""
    state, version = seated(kinds, seed, game)
    while match.outcome(game, state) is None:
        seat = game.to_act(state.game)[0]
        state, version = apply(state, version, seat, bot_move(state, version, seat, seed), seed)
    return state


def view(hand: tuple[str, ...], notes: dict[int, str] | None = None, seats: int = 3) -> Any:
    """Seat 0's view of a fresh round: its hand, its notes on other seats, a full counter."""
    counter = dict(composition("standard"))
    return WICK.View(
        you=0,
        round=1,
        ember_target=5,
        deck="standard",
        seats=tuple(
            SeatView(
                seat=n,
                name=f"Seat {n}",
                you=n == 0,
                lit=True,
                veiled=False,
                conceded=False,
                embers=0,
                cards_in_hand=2 if n == 0 else 1,
                lantern_log=(),
            )
            for n in range(seats)
        ),
        turn=0,
        hand=hand,
        notes=tuple(
            NoteView(seat=s, card=c, text=f"You saw Seat {s}'s card: {c}")
            for s, c in (notes or {}).items()
        ),
        ash=(),
        face_up=(),
        set_aside=None,
        set_aside_dealt=False,
        deck_size=10,
        counter=counter,
        result=None,
        legal_actions=(),
    )
