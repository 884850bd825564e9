"""What a Tally seat may see: its view, the log lines it may read, and what it may not know.

Public: names, hand sizes, the cards played (face up), scores, who conceded, the result.
Private to one seat: its own hand (and its deal line in the log). Nothing else is hidden.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.decider import LogEntry
from tests.tally.rules import (
    CARDS,
    Over,
    PlayCard,
    Playing,
    TallyCardPlayed,
    TallyConceded,
    TallyDealt,
    TallyEnded,
    TallyRoundWon,
    legal_actions,
    to_act,
)


class TallySeat(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone sees it."""

    seat: int
    name: str
    you: bool
    hand_size: int
    played: str | None
    score: int
    conceded: bool


class TallyView(msgspec.Struct, tag="tally_view", frozen=True, kw_only=True):
    """The table as one seat (or a spectator) may see it."""

    you: int | None
    phase: Literal["dealing", "playing", "over"]
    round: int
    hand: list[str]
    players: list[TallySeat]
    to_act: list[int]
    legal_actions: list[PlayCard]
    winners: list[int] | None = None


def observe(state: Any, seat: int | None) -> TallyView:
    """The view of one seat; None is a spectator, who holds no hand."""
    if not isinstance(state, (Playing, Over)):
        return TallyView(you=seat, phase="dealing", round=0, hand=[], players=[], to_act=[],
                         legal_actions=[])
    played = dict(state.played)
    players = [
        TallySeat(seat=s, name=name, you=s == seat, hand_size=len(state.hands[s]),
                  played=played.get(s), score=state.scores[s], conceded=state.conceded[s])
        for s, name in enumerate(state.names)
    ]
    over = isinstance(state, Over)
    return TallyView(
        you=seat,
        phase="over" if over else "playing",
        round=state.round,
        hand=[] if seat is None else list(state.hands[seat]),
        players=players,
        to_act=list(to_act(state)),
        legal_actions=[] if seat is None else legal_actions(state, seat),
        winners=list(state.winners) if over else None,
    )


def log_entries(before: Any, event: Any) -> list[LogEntry]:
    """The lines one event gives: public ones, and each seat's own deal privately."""
    match event:
        case TallyDealt(hands=hands):
            mine = [LogEntry(text=f"You were dealt {', '.join(hand)}.", seat=seat)
                    for seat, hand in enumerate(hands)]
            return [LogEntry(text=f"The cards are dealt: {len(hands[0])} each."), *mine]
        case TallyCardPlayed(seat=seat, card=card):
            return [LogEntry(text=f"{before.names[seat]} plays {card}.")]
        case TallyRoundWon(round=number, seat=seat, card=card, points=points):
            total = before.scores[seat] + points
            text = f"{before.names[seat]} wins round {number} with {card}: +{points} ({total} in all)."
            return [LogEntry(text=text)]
        case TallyConceded(seat=seat):
            return [LogEntry(text=f"{before.names[seat]} concedes.")]
        case TallyEnded(winners=winners):
            names = " and ".join(before.names[seat] for seat in winners)
            return [LogEntry(text=f"The tally is over: {names} {'wins' if len(winners) == 1 else 'win'}.")]
    return []


def knowable(state: Any, seat: int | None) -> set[str]:
    """The cards a seat (None: a spectator) may know now: every card played, and its own hand."""
    if not isinstance(state, (Playing, Over)):
        return set()
    known = {*state.discards, *(card for _, card in state.played)}
    return known | (set() if seat is None else set(state.hands[seat]))


def secrets(state: Any, seat: int | None) -> frozenset[str]:
    """Every card the reader may not know (other hands, cards never dealt), as views and lines
    write it (no card's name is part of another's); nothing once the match is over."""
    if isinstance(state, Over):
        return frozenset()
    return frozenset(set(CARDS) - knowable(state, seat))
