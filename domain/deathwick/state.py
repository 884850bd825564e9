"""The circle as the events leave it, one type per phase: unformed, the draft, play, over."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.core.reactions import Reactions
from domain.deathwick.commands import Action, Answer


class Ghost(msgspec.Struct, frozen=True, kw_only=True):
    """A ghost in a Shadow: its card, who put it there, and the class that Haunted it (D3, D6)."""

    card: int
    by: int | None
    bound: str | None = None  # "sealbinder" or "clown" when that class Haunted it


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: its Candle (top first), hand, Shadow, class, and its fate once out."""

    candle: tuple[int, ...]
    hand: tuple[int, ...] = ()
    shadow: tuple[Ghost, ...] = ()
    offer: tuple[str, ...] = ()
    curse: str | None = None
    fate: str | None = None
    cancels: tuple[int, ...] = ()  # the attackers' turns in which its Unseen/Hex power was used
    before: int = 0  # seats that fell before it (D10 placements)

    @property
    def alive(self) -> bool:
        """Still in the circle."""
        return self.fate is None


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """A turn under way (D5): whose, which turn of the match, and where in it."""

    seat: int
    number: int
    phase: Literal["ritual", "burden"] = "ritual"
    ignited: bool = False


class Declared(msgspec.Struct, frozen=True, kw_only=True):
    """An action on the table: its card waits there until it resolves or is cancelled."""

    seat: int
    action: Action
    card: int | None
    target: int | None = None
    also: int | None = None  # the Watcher's other neighbour, looked at next
    ghost: int | None = None  # the ghost it names: its place in the Shadow


class Threat(msgspec.Struct, frozen=True, kw_only=True):
    """What a reaction window waits on: the declared action, or a Salt thrown against it."""

    attacker: int
    target: int
    salt_by: int | None = None


class Sight(msgspec.Struct, frozen=True, kw_only=True):
    """A Sight's snapshot of a hand, kept for the looker until its next turn (DH4)."""

    looker: int
    target: int
    cards: tuple[int, ...]


class Unformed(msgspec.Struct, frozen=True, kw_only=True):
    """Before the circle forms: the state the first event is recorded on."""


UNFORMED = Unformed()


class Circle(msgspec.Struct, frozen=True, kw_only=True):
    """Everything on the table; the phase is the type (Drafting, Playing, Over)."""

    names: tuple[str, ...]
    decks: int
    classes: bool
    ritual: str
    prompts: str
    first: int
    players: tuple[Player, ...]
    dark: tuple[int, ...]  # top first
    rules_version: str = "1"  # the rules version it was formed under (versions.py)
    round: int = 0
    arcs: tuple[tuple[int, ...], ...] = ()
    step: int = 0
    turns: tuple[Turn, ...] = ()  # the turns under way in this step
    turn_count: int = 0
    declared: Declared | None = None
    windows: Reactions[Threat, Answer] = Reactions()
    sights: tuple[Sight, ...] = ()
    fallen: int = 0


class Drafting(Circle, frozen=True, kw_only=True):
    """D3: the classes are being chosen."""


class Playing(Circle, frozen=True, kw_only=True):
    """The rounds are being played."""


class Over(Circle, frozen=True, kw_only=True):
    """The match is over."""

    winners: tuple[int, ...] = ()


State = Drafting | Playing | Over


def with_player(state: Any, seat: int, **changes: Any) -> Any:
    """The state with one seat's fields changed."""
    players = list(state.players)
    players[seat] = msgspec.structs.replace(players[seat], **changes)
    return msgspec.structs.replace(state, players=tuple(players))


def living(state: Circle) -> tuple[int, ...]:
    """The seats still in the circle, in seat order."""
    return tuple(seat for seat, player in enumerate(state.players) if player.alive)


def left_of(state: Circle, seat: int) -> int:
    """The next living seat clockwise (the left neighbour); the seat itself if alone."""
    count = len(state.players)
    for step in range(1, count):
        other = (seat + step) % count
        if state.players[other].alive:
            return other
    return seat


def right_of(state: Circle, seat: int) -> int:
    """The next living seat anticlockwise (the right neighbour); the seat itself if alone."""
    count = len(state.players)
    for step in range(1, count):
        other = (seat - step) % count
        if state.players[other].alive:
            return other
    return seat


def neighbours(state: Circle, seat: int) -> tuple[int, ...]:
    """The seat's living neighbours, left first (one seat when only two live)."""
    found = tuple(dict.fromkeys((left_of(state, seat), right_of(state, seat))))
    return tuple(other for other in found if other != seat)


def turn_of(state: Circle, seat: int) -> Turn | None:
    """The seat's turn under way, if any."""
    return next((turn for turn in state.turns if turn.seat == seat), None)
