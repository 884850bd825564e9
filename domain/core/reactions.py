"""Reaction windows: a pending effect that waits on some seats' answers before it resolves.

A game keeps a ``Reactions`` in its state: a stack of open windows, the bottom one first. A
targeted action opens a window (``opened``) naming its effect, the seats that may answer and the
answer a seat out of time gives (its ``default``, usually ``Allow()``). While a window is open
only its seats act: the game's ``to_act`` is ``answering(reactions)`` and its decide calls
``check_answering`` for an answer and ``check_no_window`` for anything else. An answer is
recorded (``answered``); a counter (a Salt against a Salt) answers and opens a window on top
(``countered``), to any depth; once nobody owes an answer the top window is ``closed`` and the
game resolves it, then the one below it again waits on whoever still owes. The game decides what
each resolution means; this module only keeps who may answer what, and what silence means.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from domain.core.errors import NotYourTurn, RuleViolation

E = TypeVar("E")  # the game's pending effects
A = TypeVar("A")  # the game's answers (its commands that answer a window)


class Allow(msgspec.Struct, tag="allow", frozen=True, kw_only=True):
    """Let the pending effect resolve: no reaction. A seat out of time answers this by default."""


class Answered(msgspec.Struct, Generic[A], frozen=True, kw_only=True):
    """One seat's answer to a window."""

    seat: int
    answer: A


class Window(msgspec.Struct, Generic[E, A], frozen=True, kw_only=True):
    """A pending effect, who opened it, the seats that still owe an answer, and silence's meaning.

    ``default`` is the answer the server gives for a seat whose clock runs out.
    """

    effect: E
    by: int | None
    owing: tuple[int, ...]
    default: A
    answers: tuple[Answered[A], ...] = ()


class Reactions(msgspec.Struct, Generic[E, A], frozen=True, kw_only=True):
    """The open windows, the bottom one first (empty: none open)."""

    windows: tuple[Window[E, A], ...] = ()


def top(reactions: Reactions[Any, Any]) -> Window[Any, Any] | None:
    """The window being answered now, or None."""
    return reactions.windows[-1] if reactions.windows else None


def answering(reactions: Reactions[Any, Any]) -> tuple[int, ...]:
    """The seats that owe an answer now (the top window's); empty when no window is open."""
    window = top(reactions)
    return () if window is None else window.owing


def opened(
    reactions: Reactions[E, A], effect: E, by: int | None, seats: tuple[int, ...], default: A
) -> Reactions[E, A]:
    """A new window on top: ``effect`` waits on ``seats``; silence answers ``default``."""
    if not seats:
        raise RuleViolation("a reaction window needs at least one seat to answer it")
    window = Window(effect=effect, by=by, owing=seats, default=default)
    return msgspec.structs.replace(reactions, windows=(*reactions.windows, window))


def answered(reactions: Reactions[E, A], seat: int, answer: A) -> Reactions[E, A]:
    """The top window with a seat's answer recorded; that seat owes it no more."""
    check_answering(reactions, seat)
    window = reactions.windows[-1]
    done = msgspec.structs.replace(
        window,
        owing=tuple(s for s in window.owing if s != seat),
        answers=(*window.answers, Answered(seat=seat, answer=answer)),
    )
    return msgspec.structs.replace(reactions, windows=(*reactions.windows[:-1], done))


def countered(
    reactions: Reactions[E, A], seat: int, answer: A, effect: E, seats: tuple[int, ...]
) -> Reactions[E, A]:
    """A seat answers with a counter: recorded below, and the counter's own window on top (with
    the same default answer)."""
    below = answered(reactions, seat, answer)
    return opened(below, effect, seat, seats, below.windows[-1].default)


def complete(reactions: Reactions[Any, Any]) -> bool:
    """Whether the top window has every answer it waits for (time to close and resolve it)."""
    window = top(reactions)
    return window is not None and not window.owing


def closed(reactions: Reactions[E, A]) -> tuple[Window[E, A], Reactions[E, A]]:
    """Take the top window off (to resolve it) and what stays open below."""
    if not reactions.windows:
        raise RuleViolation("no reaction window is open")
    return reactions.windows[-1], msgspec.structs.replace(
        reactions, windows=reactions.windows[:-1]
    )


def depth(reactions: Reactions[Any, Any]) -> int:
    """How many windows are open (1: an answer is awaited; 2: a counter to it; ...)."""
    return len(reactions.windows)


def check_answering(reactions: Reactions[Any, Any], seat: int) -> None:
    """Refuse an answer from a seat the top window does not wait on, saying who it waits on."""
    waiting = answering(reactions)
    if not waiting:
        raise NotYourTurn("no reaction window is open: there is nothing to answer")
    if seat not in waiting:
        raise NotYourTurn(
            f"a reaction window waits on {_seats(waiting)}; seat {seat} may not answer it"
        )


def check_no_window(reactions: Reactions[Any, Any], seat: int) -> None:
    """Refuse any other command while a window is open: everyone waits for its answers."""
    waiting = answering(reactions)
    if waiting:
        raise NotYourTurn(
            f"a reaction window is open: seat {seat} waits until {_seats(waiting)} answers"
        )


def time_out_answer(reactions: Reactions[Any, A], seat: int) -> A | None:
    """What a seat out of time answers: the top window's default, if it owes that window."""
    window = top(reactions)
    return window.default if window is not None and seat in window.owing else None


def _seats(seats: tuple[int, ...]) -> str:
    """'seat 2' or 'seats 1 and 3'."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
