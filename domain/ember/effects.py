"""The effect vocabulary (E4): every ability is data (cards.toml) read by these few functions.

``choices`` lists what an effect may be aimed at (a card in play, a seat, or nothing); ``apply``
carries it out. No card has code of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core.rng import Rng
from domain.core.steps import Steps
from domain.ember.board import card_of, warded
from domain.ember.cards import Ability, number_of
from domain.ember.events import (
    CardsDiscarded,
    CardsTaken,
    CardTurned,
    CharredTaken,
    CreatureBurned,
    CreatureRegenerated,
    Turned,
)
from domain.ember.flow import draw
from domain.ember.state import InPlay, Playing

Aim = tuple[str | None, int | None]  # (a card in play, a seat): what an ability is aimed at
STEPS: tuple[Turned, Turned, Turned] = ("exhausted", "recovering", "ready")
NO_AIM: list[Aim] = [(None, None)]


def opponents(state: Playing, seat: int) -> list[int]:
    """The other seats still in the match."""
    return [o for o, w in enumerate(state.seats) if o != seat and not w.conceded]


def _their_cards(state: Playing, seat: int) -> list[tuple[int, InPlay]]:
    """EH3: opponents' face-up cards that an ability may choose (not behind a ward)."""
    return [(o, h) for o in opponents(state, seat) if not warded(state, o)
            for h in state.seats[o].cards if not h.burned]


def choices(state: Playing, seat: int, ability: Ability, source: str) -> list[Aim]:
    """What the ability may be aimed at now; empty when it has nothing to act on."""
    match ability.effect:
        case "regress":
            return [(h.card, None) for _, h in _their_cards(state, seat) if h.turned != "exhausted"]
        case "burn":
            return [(h.card, None) for _, h in _their_cards(state, seat)
                    if card_of(state, h.card).kind != "artifact"
                    and card_of(state, h.card).group <= ability.max_vp]
        case "regenerate":
            return [(h.card, None) for h in state.seats[seat].cards
                    if h.burned and card_of(state, h.card).kind != "artifact"]
        case "steal" | "discard":
            return [(None, o) for o in opponents(state, seat) if state.seats[o].hand]
        case "draw" | "scavenge" | "advance":
            return NO_AIM
    return []


def apply(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """Carry out one ability aimed as chosen."""
    _EFFECTS[ability.effect](steps, seat, ability, aim, source, rng)


def _draw(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """draw n: the seat draws n cards."""
    draw(steps, seat, ability.n, rng)


def _scavenge(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """scavenge n: the seat takes the top n numbered cards of the Charred pile (EH5: Archmages
    stay in it)."""
    numbered = [card for card in reversed(steps.state.charred) if number_of(card) is not None]
    if numbered:
        steps.then(CharredTaken(seat=seat, cards=tuple(numbered[:ability.n])))


def _advance(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """advance n: every other face-up, non-Ready card of the seat turns n steps towards Ready;
    EH6: a card used since its owner's turn began goes no further than Recovering."""
    for held in steps.state.seats[seat].cards:
        if held.card != source and not held.burned and held.turned != "ready":
            to = STEPS[min(1 if held.used else 2, STEPS.index(held.turned) + ability.n)]
            if to != held.turned:
                steps.then(CardTurned(card=held.card, turned=to))


def _regress(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """regress n: the chosen card turns n steps back, never beyond Exhausted (E5)."""
    card = aim[0]
    assert card is not None
    held = next(h for w in steps.state.seats for h in w.cards if h.card == card)
    steps.then(CardTurned(card=card, turned=STEPS[max(0, STEPS.index(held.turned) - ability.n)]))


def _burn(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """burn max_vp: the chosen creature (of at most that VP) is turned face down (E5)."""
    assert aim[0] is not None
    steps.then(CreatureBurned(card=aim[0]))


def _regenerate(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str,
                rng: Rng) -> None:
    """regenerate: the chosen Burned creature of the seat turns face up and Ready (E5)."""
    assert aim[0] is not None
    steps.then(CreatureRegenerated(card=aim[0]))


def _at_random(steps: Steps, victim: int, count: int, rng: Rng) -> tuple[str, ...]:
    """``count`` cards of the victim's hand chosen by the seeded generator."""
    state: Playing = steps.state
    hand = rng.stream("take", state.draws).shuffle(list(state.seats[victim].hand))
    return tuple(hand[:count])


def _steal(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """steal n: the seat takes n cards at random from the chosen seat's hand."""
    victim = aim[1]
    assert victim is not None
    steps.then(CardsTaken(seat=seat, source=victim,
                          cards=_at_random(steps, victim, ability.n, rng)))


def _discard(steps: Steps, seat: int, ability: Ability, aim: Aim, source: str, rng: Rng) -> None:
    """discard n: the chosen seat discards n cards at random onto the Charred pile."""
    victim = aim[1]
    assert victim is not None
    steps.then(CardsDiscarded(seat=victim, cards=_at_random(steps, victim, ability.n, rng)))


Effect = Callable[[Steps, int, Ability, Aim, str, Rng], None]
_EFFECTS: dict[str, Effect] = {
    "draw": _draw,
    "scavenge": _scavenge,
    "advance": _advance,
    "regress": _regress,
    "burn": _burn,
    "regenerate": _regenerate,
    "steal": _steal,
    "discard": _discard,
}
EXHAUST_EFFECTS = frozenset(_EFFECTS)
ONGOING_EFFECTS = frozenset({"hand_size", "extra_draw", "ward"})
