"""Reading the table: ongoing effects, hand sizes, VP, what may be conjured and at what cost."""

from __future__ import annotations

from domain.ember.cards import DRAGONS, Ability, Card, Need, Tutor, card_set, number_of
from domain.ember.state import InPlay, Playing
from domain.ember.versions import ruleset_of

HAND_SIZE = 5  # E1
MIN_HAND_SIZE = 2  # EH2: no hand shrinks below two cards
ARCHMAGE_POINTS = 5  # E9: an Archmage's worth in the tie-break


def card_of(state: Playing, card: str) -> Card:
    """A card as the table's rules version has it: its VP, cost and abilities (cards.toml)."""
    return card_set(state.rules_version).cards[card]


def tutor_of(state: Playing, seat: int) -> Tutor:
    """The seat's Tutor as the table's rules version has it."""
    return card_set(state.rules_version).tutors[state.seats[seat].tutor]


def working(held: InPlay) -> bool:
    """E5: a face-up card that is Ready (only Ready cards work, ongoing or exhaust)."""
    return held.turned == "ready" and not held.burned


def ongoing(state: Playing, seat: int, effect: str) -> int:
    """The sum of ``n`` over the seat's working Ongoing abilities of one effect (ward: a count)."""
    total = 0
    for held in state.seats[seat].cards:
        ability = card_of(state, held.card).ability("ongoing")
        if ability is not None and ability.effect == effect and working(held):
            total += ability.n if effect != "ward" else 1
    return total


def hand_size(state: Playing, seat: int) -> int:
    """E1, EH2: five, changed by the seat's working hand_size abilities, never below two."""
    return max(MIN_HAND_SIZE, HAND_SIZE + ongoing(state, seat, "hand_size"))


def extra_draws(state: Playing, seat: int) -> int:
    """The extra cards the seat's working extra_draw abilities add to its draw step."""
    return max(0, ongoing(state, seat, "extra_draw"))


def warded(state: Playing, seat: int) -> bool:
    """EH3: a working ward: opponents' abilities and Archmages cannot choose the seat's cards."""
    return ongoing(state, seat, "ward") > 0


def vp(state: Playing, seat: int) -> int:
    """E5, E2: face-up creatures' VP (a Spectral's is negative) plus VP tokens for Spectrals
    this seat conjured that lie in front of others."""
    cards = sum(card_of(state, h.card).vp for h in state.seats[seat].cards if not h.burned)
    tokens = sum(card_of(state, card).group for card, holder in state.credit if holder == seat)
    return cards + tokens


def tutor_bonus(state: Playing, seat: int) -> int:
    """E2: the seat's Tutor applied to the face-up cards it controls (EH18)."""
    ability, parts = tutor_of(state, seat).ability, ruleset_of(state).parts_are_creatures
    cards = [card_of(state, h.card) for h in state.seats[seat].cards if not h.burned]
    return ability.vp * sum(1 for card in cards if counts_for(ability, card, parts))


def counts_for(ability: Ability, card: Card, parts_are_creatures: bool = True) -> bool:
    """Whether a face-up card counts towards a tutor's modifier (EH18: a dragon part is a
    creature, and a Spectral counts for the seat it lies in front of; version 1's lesser
    creatures were the Pool's only)."""
    creature = card.kind == "creature" or (parts_are_creatures and card.kind == "dragon")
    match ability.per:
        case "element":
            return card.kind != "artifact" and card.element == ability.element
        case "dragon_part":
            return card.kind == "dragon"
        case "artifact":
            return card.kind == "artifact"
        case "lesser":
            return creature and 0 < card.vp <= ability.max_vp
        case "ongoing":
            return creature and card.ability("ongoing") is not None
    return False


def final_score(state: Playing, seat: int) -> int:
    """E9: VP with the Tutor revealed."""
    return vp(state, seat) + tutor_bonus(state, seat)


def hand_points(hand: tuple[str, ...]) -> int:
    """E9's tie-break: the numbers in hand added up, an Archmage worth five."""
    return sum(number_of(card) or ARCHMAGE_POINTS for card in hand)


def on_offer(state: Playing) -> tuple[str, ...]:
    """What anyone may conjure: face-up Pool creatures, the top part of each dragon pile (E2)
    and the dealt artifacts not yet claimed (E6)."""
    pool = tuple(card for card in state.pool if card_of(state, card).group <= state.face_up)
    tops = tuple(d.parts[3 - _left(state, d.parts)] for d in DRAGONS.values()
                 if _left(state, d.parts))
    return pool + tops + state.artifacts


def _left(state: Playing, parts: tuple[str, str, str]) -> int:
    """How many parts of a dragon are still in its pile."""
    return sum(1 for part in parts if part in state.piles)


def controls(state: Playing, seat: int, card: str) -> bool:
    """Whether a card lies in front of the seat."""
    return any(held.card == card for held in state.seats[seat].cards)


def cost_for(state: Playing, seat: int, card: str) -> tuple[Need, ...]:
    """A card's cost to this seat: a dragon part whose preceding part the seat controls costs
    what the lowest part of that unbroken chain costs (E2, the discount chain)."""
    info = card_of(state, card)
    if info.dragon is None:
        return info.cost
    parts = DRAGONS[info.dragon].parts
    lowest = info.part
    while lowest > 1 and controls(state, seat, parts[lowest - 2]):
        lowest -= 1
    return card_of(state, parts[lowest - 1]).cost


def has_legendary(state: Playing, seat: int, dragon: str) -> bool:
    """E2: all three parts in front of the seat and at least one of them Ready."""
    parts = DRAGONS[dragon].parts
    held = [h for h in state.seats[seat].cards if h.card in parts]
    return len(held) == 3 and any(working(h) for h in held)


def offered_to(state: Playing, seat: int) -> tuple[str, ...]:
    """What this seat may conjure: what is on offer, and the face-up Spectrals in front of it
    (conjured on again, they move to another seat: E2, the rulebook's Spectral cards)."""
    mine = tuple(h.card for h in state.seats[seat].cards
                 if card_of(state, h.card).spectral and not h.burned)
    return on_offer(state) + mine
