"""What happened at the table, in the past tense.  Stored forever: add fields only with defaults.

Cards are recorded by identity (see cards.py); a guess by its rank name.  Seats are numbers.
"""

from typing import Literal

import msgspec


class NightBegan(msgspec.Struct, tag="night_began", frozen=True, kw_only=True):
    """The match's table is set: who sits where, the deck, the ember target, any practice deal."""

    names: tuple[str, ...]
    deck: Literal["standard", "expanded"]
    ember_target: int
    practice_deal: tuple[tuple[int, ...], ...] = ()


class RoundDealt(msgspec.Struct, tag="round_dealt", frozen=True, kw_only=True):
    """A round's shuffled deck, laid out: set-asides, one card per seat still in, the draw pile."""

    round: int
    opener: int
    set_aside: int
    face_up: tuple[int, ...]
    hands: tuple[int | None, ...]
    draw_pile: tuple[int, ...]


class TurnBegan(msgspec.Struct, tag="turn_began", frozen=True, kw_only=True):
    """A seat's turn began: its veil dropped and it drew the top card."""

    seat: int
    drew: int


class CardPlayed(msgspec.Struct, tag="card_played", frozen=True, kw_only=True):
    """A seat played a card face up into its lantern log, choosing a seat and a guess if any."""

    seat: int
    card: int
    target: int | None = None
    guess: str | None = None


class GuessJudged(msgspec.Struct, tag="guess_judged", frozen=True, kw_only=True):
    """A Lamp Warden's guess against its target's hidden card: a hit or a miss."""

    seat: int
    target: int
    guess: str
    hit: bool


class CardSeen(msgspec.Struct, tag="card_seen", frozen=True, kw_only=True):
    """A Lensmaker's player looked at the target's hidden card (a private note)."""

    seat: int
    target: int
    card: int


class FlamesCompared(msgspec.Struct, tag="flames_compared", frozen=True, kw_only=True):
    """A Gale compared two hidden cards; the lower seat is the loser, None for equal flames."""

    seat: int
    target: int
    loser: int | None


class SeatVeiled(msgspec.Struct, tag="seat_veiled", frozen=True, kw_only=True):
    """A Veilkeeper veiled its player until the start of their next turn."""

    seat: int


class CardDiscarded(msgspec.Struct, tag="card_discarded", frozen=True, kw_only=True):
    """A Sootsweep made a seat discard its hidden card face up into the ash, unresolved."""

    seat: int
    card: int


class ReplacementDrawn(msgspec.Struct, tag="replacement_drawn", frozen=True, kw_only=True):
    """A swept seat drew a replacement: the top card, or the face-down set-aside if none is left."""

    seat: int
    card: int
    from_set_aside: bool = False


class CardsPassed(msgspec.Struct, tag="cards_passed", frozen=True, kw_only=True):
    """A Ferrywoman's pass: each listed seat passed its hidden card to the next one listed."""

    seats: tuple[int, ...]


class FlameSnuffed(msgspec.Struct, tag="flame_snuffed", frozen=True, kw_only=True):
    """A flame went out; its hidden cards went face up into the ash."""

    seat: int
    revealed: tuple[int, ...]


class SeatConceded(msgspec.Struct, tag="seat_conceded", frozen=True, kw_only=True):
    """A seat gave up the match; its flame is out and its hidden cards went to the ash."""

    seat: int
    revealed: tuple[int, ...]


class DawnBroke(msgspec.Struct, tag="dawn_broke", frozen=True, kw_only=True):
    """The deck ran out: every lit seat showed its hidden card (None for the others)."""

    revealed: tuple[int | None, ...]


class RoundWon(msgspec.Struct, tag="round_won", frozen=True, kw_only=True):
    """A round ended; each winner banked one ember."""

    round: int
    winners: tuple[int, ...]


class SetAsideRevealed(msgspec.Struct, tag="set_aside_revealed", frozen=True, kw_only=True):
    """The face-down set-aside was turned up; None when a Sootsweep had dealt it."""

    card: int | None


class NightEnded(msgspec.Struct, tag="night_ended", frozen=True, kw_only=True):
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
