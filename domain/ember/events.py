"""What happened, in the past tense. Stored forever: add defaulted fields or new events only.

Wizard cards are their ids (``fire-7``, ``archmage-2``); cards in play and tutors are their ids
in cards.toml. Every random outcome (a shuffle, a card taken at random) is recorded here, so
evolve is a plain fold.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Turned = Literal["ready", "exhausted", "recovering"]


class Dealt(msgspec.Struct, tag="dealt", frozen=True, kw_only=True, omit_defaults=True):
    """E1, E2: the draw deck shuffled, five cards each, a tutor each, three artifacts dealt; the
    rules version the table plays under (versions.py), and whether the first player's first turn
    has its draw step (E7; without it, EH15)."""

    names: tuple[str, ...]
    call_at: int
    turn_cap: int
    first: int
    face_up: int
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    tutors: tuple[str, ...]
    artifacts: tuple[str, ...]
    # Written only when not the default (omit_defaults), so a version 1 deal's bytes are as played.
    rules_version: str = "1"
    opening_draw: bool = False


class TurnBegan(msgspec.Struct, tag="turn_began", frozen=True, kw_only=True):
    """E5, E7: a seat's turn began; its non-Ready cards advanced one step."""

    seat: int
    round: int


class GroupRevealed(msgspec.Struct, tag="group_revealed", frozen=True, kw_only=True):
    """E2: the next face-down Pool group turned face up."""

    vp: int


class CardsDrawn(msgspec.Struct, tag="cards_drawn", frozen=True, kw_only=True):
    """A seat drew cards from the top of the draw deck."""

    seat: int
    cards: tuple[str, ...]


class DeckReshuffled(msgspec.Struct, tag="deck_reshuffled", frozen=True, kw_only=True):
    """E1: the Charred pile was shuffled into a new draw deck."""

    deck: tuple[str, ...]


class DrawTaken(msgspec.Struct, tag="draw_taken", frozen=True, kw_only=True):
    """E7: a seat took its draw step, recycling a card onto the Charred pile if at hand size."""

    seat: int
    recycled: str | None = None


class HandRefreshed(msgspec.Struct, tag="hand_refreshed", frozen=True, kw_only=True):
    """E7: a seat discarded its whole hand to draw as many; it conjures nothing this turn."""

    seat: int
    cards: tuple[str, ...]


class Conjured(msgspec.Struct, tag="conjured", frozen=True, kw_only=True):
    """E3, E6, E7: a seat paid a card's cost and claimed it (a Spectral goes onto ``onto``)."""

    seat: int
    card: str
    paid: tuple[str, ...]
    onto: int


class TurnEnded(msgspec.Struct, tag="turn_ended", frozen=True, kw_only=True):
    """E7, E9: a seat discarded down to hand size and ended its turn, perhaps with the Call."""

    seat: int
    discarded: tuple[str, ...] = ()
    called: bool = False


class AbilityUsed(msgspec.Struct, tag="ability_used", frozen=True, kw_only=True):
    """E6, E8: a card was exhausted (or drained) for an ability; its effects follow."""

    seat: int
    card: str
    power: Literal["exhaust", "drain", "legendary"]
    target: str | None = None
    target_seat: int | None = None


class ArchmagePlayed(msgspec.Struct, tag="archmage_played", frozen=True, kw_only=True):
    """E8: an Archmage went from a hand to the Charred pile for one effect."""

    seat: int
    archmage: str
    effect: Literal["advance", "burn", "regenerate"]
    target: str


class CardTurned(msgspec.Struct, tag="card_turned", frozen=True, kw_only=True):
    """E5: a card in play was advanced or regressed to a new orientation."""

    card: str
    turned: Turned


class CreatureBurned(msgspec.Struct, tag="creature_burned", frozen=True, kw_only=True):
    """E5: a creature was turned face down."""

    card: str


class CreatureRegenerated(msgspec.Struct, tag="creature_regenerated", frozen=True, kw_only=True):
    """E5: a Burned creature was turned face up and Ready."""

    card: str


class CardsTaken(msgspec.Struct, tag="cards_taken", frozen=True, kw_only=True):
    """A seat took cards at random from another seat's hand."""

    seat: int
    source: int
    cards: tuple[str, ...]


class CardsDiscarded(msgspec.Struct, tag="cards_discarded", frozen=True, kw_only=True):
    """A seat discarded cards at random onto the Charred pile (an opponent's ability)."""

    seat: int
    cards: tuple[str, ...]


class CharredTaken(msgspec.Struct, tag="charred_taken", frozen=True, kw_only=True):
    """A seat took the top cards of the Charred pile into its hand."""

    seat: int
    cards: tuple[str, ...]


class ClosingBegan(msgspec.Struct, tag="closing_began", frozen=True, kw_only=True):
    """E9, EH1: the final turns are over (or the turn cap reached): the last round of abilities."""

    seat: int
    capped: bool = False


class Passed(msgspec.Struct, tag="passed", frozen=True, kw_only=True):
    """E9: a seat used no ability in its go of the last round."""

    seat: int


class SeatConceded(msgspec.Struct, tag="seat_conceded", frozen=True, kw_only=True):
    """EH4: a seat gave up the match."""

    seat: int


class MatchEnded(msgspec.Struct, tag="match_ended", frozen=True, kw_only=True):
    """E9: tutors revealed, scores counted, the tie-break sums and the winners."""

    tutors: tuple[str, ...]
    scores: tuple[int, ...]
    sums: tuple[int, ...]
    winners: tuple[int, ...]


Event = (Dealt | TurnBegan | GroupRevealed | CardsDrawn | DeckReshuffled | DrawTaken
         | HandRefreshed | Conjured | TurnEnded | AbilityUsed | ArchmagePlayed | CardTurned
         | CreatureBurned | CreatureRegenerated | CardsTaken | CardsDiscarded | CharredTaken
         | ClosingBegan | Passed | SeatConceded | MatchEnded)
