"""What happened in the circle, in the past tense. Stored forever: add fields only with defaults.

Cards are recorded by identity (cards.py), ghosts by their place in a Shadow at that moment.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.deathwick.commands import Action

Fate = Literal["consumed", "possessed", "conceded"]


class CircleFormed(msgspec.Struct, tag="circle_formed", frozen=True, kw_only=True,
                   omit_defaults=True):
    """D1: the seats, the options, every Candle (top first), The Dark (top first), the first,
    and the rules version the circle plays under (versions.py)."""

    names: tuple[str, ...]
    decks: int
    classes: bool
    ritual: Literal["standard", "dark"]
    reaction_prompts: Literal["always", "only_when_able"]
    candles: tuple[tuple[int, ...], ...]
    dark: tuple[int, ...]
    first: int
    # Written only when not "1" (omit_defaults), so a version 1 circle's bytes are as played.
    rules_version: str = "1"


class CardsDrawn(msgspec.Struct, tag="cards_drawn", frozen=True, kw_only=True):
    """A seat drew cards from the top of its Candle into its hand."""

    seat: int
    cards: tuple[int, ...]


class ClassesOffered(msgspec.Struct, tag="classes_offered", frozen=True, kw_only=True):
    """D3: three classes offered to each seat."""

    offers: tuple[tuple[str, ...], ...]


class ClassChosen(msgspec.Struct, tag="class_chosen", frozen=True, kw_only=True):
    """D3: a seat accepted its curse."""

    seat: int
    name: str


class RoundBegan(msgspec.Struct, tag="round_began", frozen=True, kw_only=True):
    """D9: the living seats cut into arcs clockwise from the round's starter."""

    round: int
    arcs: tuple[tuple[int, ...], ...]


class StepBegan(msgspec.Struct, tag="step_began", frozen=True, kw_only=True):
    """D9: the i-th seat of every arc takes its turn, all at once."""

    step: int
    seats: tuple[int, ...]


class TurnBegan(msgspec.Struct, tag="turn_began", frozen=True, kw_only=True):
    """D5: a seat's turn began (``turn`` counts every turn of the match)."""

    seat: int
    turn: int


class CardBurned(msgspec.Struct, tag="card_burned", frozen=True, kw_only=True):
    """The top card of a seat's Candle went face up on top of The Dark."""

    seat: int
    card: int


class ActionDeclared(msgspec.Struct, tag="action_declared", frozen=True, kw_only=True):
    """D6: a seat's action, its card laid on the table until it resolves or is cancelled."""

    seat: int
    action: Action
    card: int | None = None
    target: int | None = None  # the seat whose window it opens (D8), None when it targets none
    also: int | None = None  # the Watcher's Sight: the other neighbour, looked at next
    ghost: int | None = None  # the ghost it names: its place in the Shadow


class ReactionAwaited(msgspec.Struct, tag="reaction_awaited", frozen=True, kw_only=True):
    """D8: a window opened: ``seat`` may answer (``salt_by``: the Salt it answers, if any)."""

    seat: int
    salt_by: int | None = None


class SaltThrown(msgspec.Struct, tag="salt_thrown", frozen=True, kw_only=True):
    """D8: a seat answered with a Salt; it went on top of The Dark."""

    seat: int
    card: int


class Allowed(msgspec.Struct, tag="allowed", frozen=True, kw_only=True):
    """D8: a seat let what its window waits on go through."""

    seat: int


class HauntCancelled(msgspec.Struct, tag="haunt_cancelled", frozen=True, kw_only=True):
    """D3: the Unseen or the Hex cancelled a Haunt with a card of its hand."""

    seat: int
    card: int
    power: str


class ActionCancelled(msgspec.Struct, tag="action_cancelled", frozen=True, kw_only=True):
    """The declared action was cancelled; its card went to The Dark."""

    seat: int
    ends_turn: bool = True


class ActionRetargeted(msgspec.Struct, tag="action_retargeted", frozen=True, kw_only=True):
    """The Watcher's Sight turned to its other neighbour."""

    seat: int
    target: int


class Haunted(msgspec.Struct, tag="haunted", frozen=True, kw_only=True):
    """The declared card became a ghost in the target's Shadow."""

    seat: int
    target: int
    bound: str | None = None


class GhostRisen(msgspec.Struct, tag="ghost_risen", frozen=True, kw_only=True):
    """BOO!: the number card on top of a seat's Candle became a ghost in its Shadow."""

    seat: int
    card: int
    by: int


class HandSeen(msgspec.Struct, tag="hand_seen", frozen=True, kw_only=True):
    """Sight: a snapshot of the target's hand, shown only to the looker."""

    seat: int
    target: int
    cards: tuple[int, ...]


class CardsScared(msgspec.Struct, tag="cards_scared", frozen=True, kw_only=True):
    """Scare: the target discarded cards blindly to The Dark."""

    seat: int
    target: int
    cards: tuple[int, ...]


class CandleDrained(msgspec.Struct, tag="candle_drained", frozen=True, kw_only=True):
    """Drain: the top of the target's Candle went on top of the seat's (unseen by anyone)."""

    seat: int
    target: int


class CardClaimed(msgspec.Struct, tag="card_claimed", frozen=True, kw_only=True):
    """Claim: a random card of the target's hand went to the seat's hand."""

    seat: int
    target: int
    card: int


class GhostBanished(msgspec.Struct, tag="ghost_banished", frozen=True, kw_only=True):
    """A ghost left a seat's Shadow: to The Dark, or Siphoned to the bottom of its Candle."""

    seat: int
    index: int
    siphoned: bool = False


class GhostRecalled(msgspec.Struct, tag="ghost_recalled", frozen=True, kw_only=True):
    """Recall: a ghost of ``owner``'s Shadow went to the seat's hand."""

    seat: int
    owner: int
    index: int


class GhostPossessed(msgspec.Struct, tag="ghost_possessed", frozen=True, kw_only=True):
    """Possess: a ghost of the seat's Shadow moved to the target's."""

    seat: int
    target: int
    index: int


class CandleRekindled(msgspec.Struct, tag="candle_rekindled", frozen=True, kw_only=True):
    """Rekindle or Medium: the top cards of The Dark went on top of the seat's Candle."""

    seat: int
    count: int


class ShadowsSwapped(msgspec.Struct, tag="shadows_swapped", frozen=True, kw_only=True):
    """Mirror: two Shadows swapped (the Sealbinder's ghosts stayed)."""

    seat: int
    target: int


class DarkTaken(msgspec.Struct, tag="dark_taken", frozen=True, kw_only=True):
    """Medium: the top card of The Dark went to the seat's hand."""

    seat: int
    card: int


class PanicFlipped(msgspec.Struct, tag="panic_flipped", frozen=True, kw_only=True):
    """Panic: the top of the seat's Candle, flipped against a ghost, went to The Dark."""

    seat: int
    card: int
    beaten: bool


class EffectFizzled(msgspec.Struct, tag="effect_fizzled", frozen=True, kw_only=True):
    """An effect found nothing to act on (an empty Candle, hand or Dark)."""

    seat: int
    why: str


class ActionResolved(msgspec.Struct, tag="action_resolved", frozen=True, kw_only=True):
    """The declared action is done; a card still on the table went to The Dark."""

    seat: int


class CardDiscarded(msgspec.Struct, tag="card_discarded", frozen=True, kw_only=True):
    """The Burden: a card from hand to The Dark."""

    seat: int
    card: int


class RitualDone(msgspec.Struct, tag="ritual_done", frozen=True, kw_only=True):
    """D5: the seat's Ritual is over; the Burden follows."""

    seat: int


class TurnEnded(msgspec.Struct, tag="turn_ended", frozen=True, kw_only=True):
    """D5: the seat is alive at the end of its turn."""

    seat: int


class SeatFallen(msgspec.Struct, tag="seat_fallen", frozen=True, kw_only=True):
    """D10: a seat is out; its hand, Shadow and Candle went face up to The Dark.

    ``before`` counts the seats that fell before this one's batch (for placements).
    """

    seat: int
    fate: Fate
    revealed: tuple[int, ...]
    before: int


class CircleClosed(msgspec.Struct, tag="circle_closed", frozen=True, kw_only=True):
    """D10: the match is over; these seats won it."""

    winners: tuple[int, ...]


Event = (CircleFormed | CardsDrawn | ClassesOffered | ClassChosen | RoundBegan | StepBegan
         | TurnBegan | CardBurned | ActionDeclared | ReactionAwaited | SaltThrown | Allowed
         | HauntCancelled | ActionCancelled | ActionRetargeted | Haunted | GhostRisen | HandSeen
         | CardsScared | CandleDrained | CardClaimed | GhostBanished | GhostRecalled
         | GhostPossessed | CandleRekindled | ShadowsSwapped | DarkTaken | PanicFlipped
         | EffectFizzled | ActionResolved | CardDiscarded | RitualDone | TurnEnded | SeatFallen
         | CircleClosed)
