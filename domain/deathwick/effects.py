"""What an action does once nothing stops it (D6, the Grimoire): one function per effect; every
ghost destroyed goes through ``destroy``, which asks the one Siphon rule (siphon.py).

The reaction windows (windows.py) decide whether an action resolves, and resolve it with these;
the Grimoire (grimoire.py) names the effect of each rank when Cast.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core.rng import Rng
from domain.core.seats import clockwise_from
from domain.core.steps import Steps
from domain.deathwick import cards
from domain.deathwick.classes import CLOWN, SADIST, SEALBINDER
from domain.deathwick.commands import CastCard
from domain.deathwick.events import (
    CandleDrained,
    CandleRekindled,
    CardBurned,
    CardClaimed,
    CardsDrawn,
    CardsScared,
    DarkTaken,
    EffectFizzled,
    GhostBanished,
    GhostPossessed,
    GhostRecalled,
    GhostRisen,
    HandSeen,
    Haunted,
    PanicFlipped,
    ShadowsSwapped,
)
from domain.deathwick.flow import dark_consumes, fall
from domain.deathwick.siphon import Way, siphons
from domain.deathwick.state import Declared, Over, Playing, turn_of
from domain.deathwick.versions import ruleset_of

Effect = Callable[[Steps, Declared, Rng], None]


def nothing(steps: Steps, declared: Declared, rng: Rng) -> None:
    """Pass: no effect."""


def haunt(steps: Steps, declared: Declared, rng: Rng) -> None:
    """The card becomes a ghost in the target's Shadow, bound when the Sealbinder or Clown
    Haunts."""
    curse = steps.state.players[declared.seat].curse
    bound = curse if curse in (SEALBINDER, CLOWN) else None
    assert declared.target is not None
    steps.then(Haunted(seat=declared.seat, target=declared.target, bound=bound))


def ignite(steps: Steps, declared: Declared, rng: Rng) -> None:
    """The Pyromaniac's neighbour Burns one card (nothing if its Candle is empty)."""
    assert declared.target is not None
    burn_one(steps, declared.seat, declared.target)


def burn_one(steps: Steps, seat: int, target: int) -> None:
    """The target Burns its top card, or the effect fizzles on an empty Candle."""
    candle = steps.state.players[target].candle
    if candle:
        steps.then(CardBurned(seat=target, card=candle[0]))
    else:
        steps.then(EffectFizzled(seat=seat, why="the Candle is empty"))


def sight(steps: Steps, declared: Declared, rng: Rng) -> None:
    """A: the looker sees the target's hand; the Watcher then turns to its other neighbour."""
    assert declared.target is not None
    hand = steps.state.players[declared.target].hand
    steps.then(HandSeen(seat=declared.seat, target=declared.target, cards=hand))


def greed(steps: Steps, declared: Declared, rng: Rng) -> None:
    """2: draw 2 cards (as many as the Candle has)."""
    candle = steps.state.players[declared.seat].candle
    if candle:
        steps.then(CardsDrawn(seat=declared.seat, cards=candle[:2]))
    else:
        steps.then(EffectFizzled(seat=declared.seat, why="the Candle is empty"))


def target_hand(steps: Steps, declared: Declared) -> tuple[int, ...]:
    """The target's hand; an empty one makes the effect fizzle."""
    assert declared.target is not None
    hand = steps.state.players[declared.target].hand
    if not hand:
        steps.then(EffectFizzled(seat=declared.seat, why="the hand is empty"))
    return hand


def scare(steps: Steps, declared: Declared, rng: Rng) -> None:
    """3: the target shuffles and blindly discards 1 (the Sadist's: 2; DH3) to The Dark."""
    hand = target_hand(steps, declared)
    if not hand or declared.target is None:
        return
    count = 2 if steps.state.players[declared.seat].curse == SADIST else 1
    shuffled = rng.stream("scare", _turn(steps, declared)).shuffle(hand)
    steps.then(CardsScared(seat=declared.seat, target=declared.target,
                           cards=tuple(shuffled[:count])))


def drain(steps: Steps, declared: Declared, rng: Rng) -> None:
    """4: the top of the target's Candle onto the top of the seat's; fizzles on an empty one."""
    assert declared.target is not None
    if steps.state.players[declared.target].candle:
        steps.then(CandleDrained(seat=declared.seat, target=declared.target))
    else:
        steps.then(EffectFizzled(seat=declared.seat, why="the Candle is empty"))


def claim(steps: Steps, declared: Declared, rng: Rng) -> None:
    """6: a random card of the target's hand to the seat's (D7)."""
    hand = target_hand(steps, declared)
    if not hand or declared.target is None:
        return
    card = rng.stream("claim", _turn(steps, declared)).choice(hand)
    steps.then(CardClaimed(seat=declared.seat, target=declared.target, card=card))


def cleanse(steps: Steps, declared: Declared, rng: Rng) -> None:
    """7: destroy a ghost of your Shadow (Siphoned on a rank or suit match: siphon.py)."""
    assert declared.ghost is not None and declared.card is not None
    destroy(steps, declared.seat, declared.ghost, "cleanse", declared.card)


def recall(steps: Steps, declared: Declared, rng: Rng) -> None:
    """8: a ghost from a Shadow to the seat's hand."""
    assert declared.ghost is not None
    owner = declared.seat if declared.target is None else declared.target
    steps.then(GhostRecalled(seat=declared.seat, owner=owner, index=declared.ghost))


def possess(steps: Steps, declared: Declared, rng: Rng) -> None:
    """9: a ghost of your Shadow to the target's."""
    assert declared.ghost is not None and declared.target is not None
    steps.then(GhostPossessed(seat=declared.seat, target=declared.target, index=declared.ghost))


def rekindle(steps: Steps, declared: Declared, rng: Rng) -> None:
    """10: the top 3 of The Dark onto the Candle (fewer if The Dark has fewer)."""
    onto_candle(steps, declared.seat, 3)


def onto_candle(steps: Steps, seat: int, count: int) -> None:
    """The top cards of The Dark onto the seat's Candle, or a fizzle on an empty Dark."""
    taken = min(count, len(steps.state.dark))
    if taken:
        steps.then(CandleRekindled(seat=seat, count=taken))
    else:
        steps.then(EffectFizzled(seat=seat, why="The Dark is empty"))


def mirror(steps: Steps, declared: Declared, rng: Rng) -> None:
    """J: swap Shadows with the target."""
    assert declared.target is not None
    steps.then(ShadowsSwapped(seat=declared.seat, target=declared.target))


def medium(steps: Steps, declared: Declared, rng: Rng) -> None:
    """Q: the top card of The Dark to the hand (DH5), or the top 2 onto the Candle."""
    action = declared.action
    assert isinstance(action, CastCard)
    if action.choice == "candle":
        onto_candle(steps, declared.seat, 2)
    elif steps.state.dark:
        steps.then(DarkTaken(seat=declared.seat, card=steps.state.dark[0]))
    else:
        steps.then(EffectFizzled(seat=declared.seat, why="The Dark is empty"))


def purge(steps: Steps, declared: Declared, rng: Rng) -> None:
    """K: banish every ghost of your Shadow, the last first (DH6: the Clown's too)."""
    assert declared.card is not None
    for index in reversed(range(len(steps.state.players[declared.seat].shadow))):
        destroy(steps, declared.seat, index, "purge", declared.card)


def boo(steps: Steps, declared: Declared, rng: Rng) -> None:
    """Joker: each other player Burns until a number card, which becomes a ghost in its Shadow;
    a Candle that runs out first consumes its owner."""
    state = steps.state
    for seat in clockwise_from(declared.seat, len(state.players))[1:]:
        if isinstance(steps.state, Over):
            return
        if steps.state.players[seat].alive:
            boo_one(steps, seat, declared.seat)


def boo_one(steps: Steps, seat: int, caster: int) -> None:
    """One player's BOO!: burn past faces and jokers to a number card."""
    while True:
        candle = steps.state.players[seat].candle
        if not candle:
            fall(steps, [seat], "consumed")
            return
        if cards.is_number(candle[0]):
            steps.then(GhostRisen(seat=seat, card=candle[0], by=caster))
            return
        steps.then(CardBurned(seat=seat, card=candle[0]))


def banish(steps: Steps, declared: Declared, rng: Rng) -> None:
    """Banish: the card destroys the ghost (Siphoned or not: siphon.py)."""
    assert declared.ghost is not None and declared.card is not None
    destroy(steps, declared.seat, declared.ghost, "banish", declared.card)


def panic(steps: Steps, declared: Declared, rng: Rng) -> None:
    """Panic: flip the Candle's top against the ghost; it goes to The Dark either way. From
    rules version 2, in the dark ritual, a flip that empties the Candle consumes at once, before
    the ghost is destroyed, so no Siphon refills it (D4, DH17)."""
    assert declared.ghost is not None
    player = steps.state.players[declared.seat]
    flipped, ghost = player.candle[0], player.shadow[declared.ghost].card
    beaten = beats_on_panic(flipped, ghost)
    steps.then(PanicFlipped(seat=declared.seat, card=flipped, beaten=beaten))
    if ruleset_of(steps.state).flip_consumes_at_once and dark_consumes(steps, declared.seat):
        return
    if beaten:
        destroy(steps, declared.seat, declared.ghost, "panic", flipped)


def destroy(steps: Steps, seat: int, index: int, way: Way, card: int) -> None:
    """The ghost at ``index`` of the seat's Shadow leaves it, Siphoned or to The Dark, as the
    one Siphon rule (siphon.py) says for the card that removed it this way."""
    ghost = steps.state.players[seat].shadow[index].card
    siphoned = siphons(ruleset_of(steps.state), way, card, ghost)
    steps.then(GhostBanished(seat=seat, index=index, siphoned=siphoned))


def _turn(steps: Steps, declared: Declared) -> int:
    """The number of the acting seat's turn (D7: random draws keyed by it)."""
    state: Playing = steps.state
    turn = turn_of(state, declared.seat)
    return turn.number if turn else state.turn_count


def beats_on_panic(flipped: int, ghost: int) -> bool:
    """A Panic's flip destroys the ghost if it meets or beats it; a joker always does."""
    return cards.rank(flipped) == 0 or cards.meets(flipped, ghost)
