"""What happened at the table, in the past tense.  Stored forever: add fields only with defaults.

Cards are recorded by identity (see cards.py); a guess by its rank name.  Seats are numbers.
"""

from typing import Literal

import msgspec


class _Event(msgspec.Struct, frozen=True, kw_only=True):
    """Shared configuration of every Wick & Ember event."""


class NightBegan(_Event, tag="night_began"):
    """The match's table is set: who sits where, the deck, the ember target, any practice deal."""

    names: tuple[str, ...]
    deck: Literal["standard", "expanded"]
    ember_target: int
    practice_deal: tuple[tuple[int, ...], ...] = ()


class RoundDealt(_Event, tag="round_dealt"):
    """A round's shuffled deck, laid out: set-asides, one card per seat still in, the draw pile."""

    round: int
    opener: int
    set_aside: int
    face_up: tuple[int, ...]
    hands: tuple[int | None, ...]
    draw_pile: tuple[int, ...]


class TurnBegan(_Event, tag="turn_began"):
    """A seat's turn began: its veil dropped and it drew the top card."""

    seat: int
    drew: int


class CardPlayed(_Event, tag="card_played"):
    """A seat played a card face up into its lantern log, choosing a seat and a guess if any."""

    seat: int
    card: int
    target: int | None = None
    guess: str | None = None


class GuessJudged(_Event, tag="guess_judged"):
    """A Lamp Warden's guess against its target's hidden card: a hit or a miss."""

    seat: int
    target: int
    guess: str
    hit: bool


class CardSeen(_Event, tag="card_seen"):
    """A Lensmaker's player looked at the target's hidden card (a private note)."""

    seat: int
    target: int
    card: int


class FlamesCompared(_Event, tag="flames_compared"):
    """A Gale compared two hidden cards; the lower seat is the loser, None for equal flames."""

    seat: int
    target: int
    loser: int | None


class SeatVeiled(_Event, tag="seat_veiled"):
    """A Veilkeeper veiled its player until the start of their next turn."""

    seat: int


class CardDiscarded(_Event, tag="card_discarded"):
    """A Sootsweep made a seat discard its hidden card face up into the ash, unresolved."""

    seat: int
    card: int


class ReplacementDrawn(_Event, tag="replacement_drawn"):
    """A swept seat drew a replacement: the top card, or the face-down set-aside if none is left."""

    seat: int
    card: int
    from_set_aside: bool = False


class CardsPassed(_Event, tag="cards_passed"):
    """A Ferrywoman's pass: each listed seat passed its hidden card to the next one listed."""

    seats: tuple[int, ...]


class FlameSnuffed(_Event, tag="flame_snuffed"):
    """A flame went out; its hidden cards went face up into the ash."""

    seat: int
    revealed: tuple[int, ...]


class SeatConceded(_Event, tag="seat_conceded"):
    """A seat gave up the match; its flame is out and its hidden cards went to the ash."""

    seat: int
    revealed: tuple[int, ...]


class DawnBroke(_Event, tag="dawn_broke"):
    """The deck ran out: every lit seat showed its hidden card (None for the others)."""

    revealed: tuple[int | None, ...]


class RoundWon(_Event, tag="round_won"):
    """A round ended; each winner banked one ember."""

    round: int
    winners: tuple[int, ...]


class SetAsideRevealed(_Event, tag="set_aside_revealed"):
    """The face-down set-aside was turned up; None when a Sootsweep had dealt it."""

    card: int | None


class NightEnded(_Event, tag="night_ended"):
    """The match is over; these seats won it."""

    winners: tuple[int, ...]


Event = (
    NightBegan
    | RoundDealt
    | TurnBegan
    | CardPlayed
    | GuessJudged
    | CardSeen
    | FlamesCompared
    | SeatVeiled
    | CardDiscarded
    | ReplacementDrawn
    | CardsPassed
    | FlameSnuffed
    | SeatConceded
    | DawnBroke
    | RoundWon
    | SetAsideRevealed
    | NightEnded
)
