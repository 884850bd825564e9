"""The flow of the circle: forming it, rounds and steps (D9), turns (D5), falls, the end (D10)."""

from __future__ import annotations

from domain.core.rng import Rng
from domain.core.seats import clockwise_from, first_clockwise
from domain.core.steps import Steps
from domain.deathwick import cards
from domain.deathwick.classes import NAMES, OFFERED, hand_limit
from domain.deathwick.events import (
    CardBurned,
    CardsDrawn,
    CircleClosed,
    CircleFormed,
    ClassesOffered,
    Event,
    Fate,
    RitualDone,
    RoundBegan,
    SeatFallen,
    StepBegan,
    TurnBegan,
    TurnEnded,
)
from domain.deathwick.evolve import steps_from
from domain.deathwick.options import HAND, Options, deal
from domain.deathwick.state import UNFORMED, Circle, Over, living
from domain.deathwick.versions import Ruleset


def form(options: Options, names: tuple[str, ...], rng: Rng, ruleset: Ruleset) -> list[Event]:
    """D1, D3: deal the Candles, fill The Dark, draw the hands, draw the first player, offer;
    the circle records the rules version it plays under."""
    seats = len(names)
    decks = cards.decks_for(seats)
    candles, dark = deal(options, seats, rng.stream("deal").shuffle(cards.pool(decks)))
    first = options.first if options.first is not None else rng.stream("first").below(seats)
    steps = steps_from(UNFORMED)
    steps.then(CircleFormed(names=names, decks=decks, classes=options.classes == "on",
                            ritual=options.ritual, reaction_prompts=options.reaction_prompts,
                            candles=candles, dark=dark, first=first,
                            rules_version=ruleset.version))
    for seat in range(seats):
        steps.then(CardsDrawn(seat=seat, cards=candles[seat][:HAND]))
    if options.classes == "on":
        steps.then(ClassesOffered(offers=offers(options, seats, rng)))
    else:
        begin_round(steps)
    return steps.events


def offers(options: Options, seats: int, rng: Rng) -> tuple[tuple[str, ...], ...]:
    """D3, D7: three different classes for each seat, from the seeded generator (or scripted)."""
    if options.offers is not None:
        return tuple(tuple(offer) for offer in options.offers)
    return tuple(tuple(rng.stream("offer", seat).shuffle(NAMES)[:OFFERED])
                 for seat in range(seats))


def group_size(alive: int) -> int:
    """D9: how many seats act at once for this many living players."""
    if alive <= 5:
        return 1
    if alive <= 8:
        return 2
    return 3 if alive <= 14 else 4


def cut(order: list[int], k: int) -> tuple[tuple[int, ...], ...]:
    """D9: the seats in k arcs as equal as possible, longer arcs first."""
    base, extra = divmod(len(order), k)
    arcs, start = [], 0
    for index in range(k):
        size = base + (index < extra)
        arcs.append(tuple(order[start:start + size]))
        start += size
    return tuple(arcs)


def begin_round(steps: Steps) -> None:
    """D9: the living seats cut into arcs clockwise from the starter, then the first step."""
    state: Circle = steps.state
    alive = living(state)
    count = len(state.players)
    starter = first_clockwise(state.first, count, alive)
    assert starter is not None
    order = [seat for seat in clockwise_from(starter, count) if state.players[seat].alive]
    steps.then(RoundBegan(round=state.round + 1, arcs=cut(order, group_size(len(alive)))))
    next_step(steps, 0)


def next_step(steps: Steps, step: int) -> None:
    """The first step from ``step`` on with a living seat in it, else a new round."""
    state: Circle = steps.state
    while any(step < len(arc) for arc in state.arcs):
        seats = tuple(arc[step] for arc in state.arcs
                      if step < len(arc) and state.players[arc[step]].alive)
        if seats:
            steps.then(StepBegan(step=step, seats=seats))
            for seat in seats:
                if isinstance(steps.state, Over):
                    return
                if steps.state.players[seat].alive:
                    start_turn(steps, seat)
            advance(steps)
            return
        step += 1
    begin_round(steps)


def advance(steps: Steps) -> None:
    """When every turn of the step has ended: the next step (or round)."""
    state = steps.state
    if isinstance(state, Over) or state.turns:
        return
    next_step(steps, state.step + 1)


def start_turn(steps: Steps, seat: int) -> None:
    """D5: the turn begins; the Haunting burns one per ghost, then the Draw (D4 for an empty
    Candle)."""
    steps.then(TurnBegan(seat=seat, turn=steps.state.turn_count + 1))
    for _ in steps.state.players[seat].shadow:
        candle = steps.state.players[seat].candle
        if not candle:
            fall(steps, [seat], "consumed")
            return
        steps.then(CardBurned(seat=seat, card=candle[0]))
        if dark_consumes(steps, seat):
            return
    candle = steps.state.players[seat].candle
    if candle:
        steps.then(CardsDrawn(seat=seat, cards=candle[:1]))
        dark_consumes(steps, seat)


def dark_consumes(steps: Steps, seat: int) -> bool:
    """D4, dark ritual: an empty Candle consumes its owner at once."""
    state = steps.state
    if state.ritual == "dark" and state.players[seat].alive and not state.players[seat].candle:
        fall(steps, [seat], "consumed")
        return True
    return False


def settle(steps: Steps, actor: int) -> None:
    """D4, dark ritual: after an action, every empty Candle consumes its owner, the actor first
    and then clockwise."""
    state = steps.state
    if isinstance(state, Over) or state.ritual != "dark":
        return
    order = clockwise_from(actor, len(state.players))
    empty = [s for s in order if state.players[s].alive and not state.players[s].candle]
    if empty:
        fall(steps, empty, "consumed")


def end_ritual(steps: Steps, seat: int) -> None:
    """D5: the Ritual is over; the Burden, then Am I Alive (a seat fallen meanwhile: the step
    goes on without it)."""
    if isinstance(steps.state, Over):
        return
    if not steps.state.players[seat].alive:
        advance(steps)
        return
    steps.then(RitualDone(seat=seat))
    burden_or_end(steps, seat)


def burden_or_end(steps: Steps, seat: int) -> None:
    """D5: a hand over its limit waits for discards; otherwise Am I Alive."""
    player = steps.state.players[seat]
    if len(player.hand) <= hand_limit(player.curse):
        am_i_alive(steps, seat)


def am_i_alive(steps: Steps, seat: int) -> None:
    """D5: the Candle check (standard ritual), then Possession; then the step goes on."""
    state = steps.state
    player = state.players[seat]
    if not player.candle:
        fall(steps, [seat], "consumed")
    elif possessed(state, seat):
        fall(steps, [seat], "possessed")
    else:
        steps.then(TurnEnded(seat=seat))
    advance(steps)


def possessed(state: Circle, seat: int) -> bool:
    """D5: three or more ghosts of one suit in the Shadow."""
    suits = [cards.suit(ghost.card) for ghost in state.players[seat].shadow]
    return any(suits.count(s) >= 3 for s in cards.SUITS)


def fall(steps: Steps, seats: list[int], fate: Fate) -> None:
    """D10: the seats are out, everything they had face up to The Dark; the last standing win
    (the last ones out together share it)."""
    state: Circle = steps.state
    batch = [seat for seat in seats if state.players[seat].alive]
    before = state.fallen
    for seat in batch:
        player = steps.state.players[seat]
        revealed = (*player.hand, *(g.card for g in player.shadow), *player.candle)
        steps.then(SeatFallen(seat=seat, fate=fate, revealed=revealed, before=before))
    alive = living(steps.state)
    if len(alive) <= 1:
        steps.then(CircleClosed(winners=alive or tuple(sorted(batch))))
