"""The match log in the rulebook's words: public lines, and private lines for one seat (R11).

Every line is judged against the state just before its event.  A committed card is told only to
its owner until the reveal; Fate's order is never told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.decider import LogEntry
from domain.whiteout_road.cards import in_order, is_spade, pips, title, wagon_of
from domain.whiteout_road.endings import TOWN
from domain.whiteout_road.events import (
    CardFed,
    CardFlung,
    Commitment,
    Event,
    FateFlipped,
    GambitCalled,
    GratitudePaid,
    KingRoared,
    LastWatchBegan,
    LoadMissed,
    NightDealt,
    NightEnded,
    PlayCommitted,
    PlaysCalled,
    PlaysRevealed,
    Repayment,
    RoadEnded,
    RoadOpened,
    SeatConceded,
    SnowDrifted,
    SnowRose,
    StoreLoaded,
    TrailBroken,
    WagonPushed,
    WagonRolled,
    WatchKept,
)
from domain.whiteout_road.state import Table, Unopened


def log_entries(before: Table | Unopened, event: Event) -> list[LogEntry]:
    """The log lines one event gives, judged against the state just before it."""
    return _WRITERS[type(event)](before, event)


def listing(words: list[str]) -> str:
    """'Mara', 'Mara and Bryn', 'Mara, Bryn and Cato'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _say(text: str, seat: int | None = None) -> LogEntry:
    """A log line, public unless addressed to one seat."""
    return LogEntry(text=text, seat=seat)


def _card(text: str) -> str:
    """'the 7 of clubs' -> '7 of clubs', for "Mara's 7 of clubs"."""
    return text.removeprefix("the ")


def intent(play: Commitment | PlayCommitted) -> str:
    """What a committed card is for: 'to the fire', 'to load onto the food wagon'."""
    wagon = play.wagon or wagon_of(play.card)
    return {
        "feed": "to the fire",
        "load": f"to load onto the {wagon} wagon",
        "push": f"to push the {wagon} wagon",
        "break_trail": f"to break trail for the {wagon} wagon",
        "fling": f"to fling onto the {wagon} wagon",
        "watch": "to keep watch",
    }[play.play]


def _opened(_: Unopened, event: RoadOpened) -> list[LogEntry]:
    """The table is set."""
    return [
        _say(
            f"{listing(list(event.names))} set out on the Whiteout Road for three nights; "
            f"the road is buried when the snow reaches {event.burial_mark}."
        )
    ]


def _dealt(before: Any, event: NightDealt) -> list[LogEntry]:
    """A new night: the deal in public, each hand in private."""
    size = max(len(hand) for hand in event.hands)
    lines = [
        _say(
            f"Night {event.night}: each traveller is dealt {size} cards; the Fate deck holds "
            f"{len(event.fate)} cards, the whiteout among them. Wagons and snow stand at 0."
        )
    ]
    for seat, hand in enumerate(event.hands):
        if hand:
            cards = listing([title(card) for card in in_order(hand)])
            lines.append(_say(f"You were dealt {cards}.", seat))
    return lines


def _flipped(before: Any, event: FateFlipped) -> list[LogEntry]:
    """A Fate card is turned up, and what it does."""
    card = title(event.card)
    if event.tie_break:
        return [_say(f"Fate is flipped to break the tie: {card}.")]
    if event.snow is not None:
        return [_say(f"The Fate card is {card}: a cold snap, the snow rises to {event.snow}.")]
    if event.wagon is None:
        return [_say(f"The Fate card is {card}!")]
    was = before.board.wagon(event.wagon).position
    return [_say(f"The Fate card is {card}: {_roll(event.wagon, was, event.position)}.")]


def _roll(wagon: str, was: int, now: int | None) -> str:
    """'the firewood wagon rolls to 3', '... rolls into Town', '... is empty and stays on 5'."""
    if now == was:
        return f"the {wagon} wagon is empty and stays on {was}"
    if now == TOWN:
        return f"the {wagon} wagon rolls into Town"
    return f"the {wagon} wagon rolls to {now}"


def _called(before: Any, event: PlaysCalled) -> list[LogEntry]:
    """Step 2 begins."""
    names = [before.road.names[seat] for seat in event.seats]
    return [_say(f"{listing(names)} each commit a card face down.")]


def _committed(before: Any, event: PlayCommitted) -> list[LogEntry]:
    """Everyone sees that a card is down; only its owner sees which and what for."""
    return [
        _say(f"{before.road.names[event.seat]} has committed a card."),
        _say(f"You committed {title(event.card)} {intent(event)}.", event.seat),
    ]


def _revealed(before: Any, event: PlaysRevealed) -> list[LogEntry]:
    """All committed cards turn up together."""
    names = before.road.names
    shown = [f"{names[p.seat]}, {title(p.card)} {intent(p)}" for p in event.plays]
    return [_say("The cards are turned up: " + "; ".join(shown) + ".")] if shown else []


def _loaded(before: Any, event: StoreLoaded) -> list[LogEntry]:
    """A store rides its wagon, at full or half pips."""
    whose = f"{before.road.names[event.seat]}'s {_card(title(event.card))}"
    if event.pips < pips(event.card):
        where = before.board.wagon(event.wagon).position
        return [
            _say(
                f"The {event.wagon} wagon is on {where}: {whose} is caught at half pips, "
                f"{event.pips} in stores."
            )
        ]
    return [_say(f"{whose} rides the {event.wagon} wagon: {event.pips} in stores.")]


def _missed(before: Any, event: LoadMissed) -> list[LogEntry]:
    """An empty wagon on 3 to 5 catches nothing."""
    where = before.board.wagon(event.wagon).position
    whose = f"{before.road.names[event.seat]}'s {_card(title(event.card))}"
    return [
        _say(f"The {event.wagon} wagon is empty on {where} and catches nothing: {whose} is lost.")
    ]


def _pushed(before: Any, event: WagonPushed) -> list[LogEntry]:
    """A push rolls its wagon."""
    name, was = before.road.names[event.seat], before.board.wagon(event.wagon).position
    if event.position == was:
        return [_say(f"{name} pushes the empty {event.wagon} wagon, but it stops at {was}.")]
    if event.position == TOWN:
        return [_say(f"{name} pushes the {event.wagon} wagon into Town!")]
    return [_say(f"{name} pushes the {event.wagon} wagon to {event.position}.")]


def _broken(before: Any, event: TrailBroken) -> list[LogEntry]:
    """A spade shovels a laden wagon on, or finds it gone from 3 and 4."""
    name, card = before.road.names[event.seat], title(event.card)
    wagon = f"the {event.wagon} wagon"
    if event.position is None:
        return [_say(f"{name} breaks trail with {card}, but {wagon} has left 3 and 4.")]
    return [_say(f"{name} breaks trail with {card}: {wagon} is shovelled to {event.position}.")]


def _fed(before: Any, event: CardFed) -> list[LogEntry]:
    """A card to the fire, with its wage."""
    wage = 3 if is_spade(event.card) else 1
    name = before.road.names[event.seat]
    return [_say(f"{name} feeds {title(event.card)} to the fire (+{wage}).")]


def _drifted(_: Any, event: SnowDrifted) -> list[LogEntry]:
    """Step 3: the drift."""
    if event.by == 0:
        return [_say(f"Everyone fed the fire: the snow does not drift ({event.snow}).")]
    return [_say(f"The snow drifts {event.by}, to {event.snow}.")]


def _roared(before: Any, event: KingRoared) -> list[LogEntry]:
    """A fed King takes the snow back one."""
    whose = f"{before.road.names[event.seat]}'s {_card(title(event.card))}"
    if before.board.snow == 0:
        return [_say(f"{whose} roars, but the snow is already at 0.")]
    return [_say(f"{whose} roars: the snow falls back to {event.snow}.")]


def _gambit(before: Any, event: GambitCalled) -> list[LogEntry]:
    """The whiteout found no laden wagon that had moved."""
    if not event.seats:
        return [_say("No laden wagon has moved, and nobody holds a card: the Gambit.")]
    names = listing([before.road.names[seat] for seat in event.seats])
    return [_say(f"No laden wagon has moved: the Gambit! {names} each commit one more card.")]


def _flung(before: Any, event: CardFlung) -> list[LogEntry]:
    """A card flung onto its wagon."""
    name = before.road.names[event.seat]
    return [_say(f"{name} flings {title(event.card)} onto the {event.wagon} wagon.")]


def _watched(before: Any, event: WatchKept) -> list[LogEntry]:
    """A spade kept as a watch."""
    return [_say(f"{before.road.names[event.seat]} keeps watch with {title(event.card)} (+3).")]


def _last_watch(_: Any, __: LastWatchBegan) -> list[LogEntry]:
    """Every hand is empty."""
    return [
        _say("Every hand is empty: the Last Watch. The snow floods, then the laden wagons roll.")
    ]


def _rose(_: Any, event: SnowRose) -> list[LogEntry]:
    """The Last Watch's flood."""
    return [_say(f"The snow rises {event.by}, to {event.snow}.")]


def _rolled(before: Any, event: WagonRolled) -> list[LogEntry]:
    """The Last Watch's roll."""
    text = _roll(event.wagon, before.board.wagon(event.wagon).position, event.position)
    return [_say(text[0].upper() + text[1:] + ".")]


def _ended(before: Any, event: NightEnded) -> list[LogEntry]:
    """How the night ended."""
    if event.through is None:
        return [_say(_buried(before, event))]
    label = _wagon_label(before, event.through)
    text = {
        "through": f"{label} is through",
        "whiteout": f"The whiteout: {label} is through",
        "gambit": f"The Gambit goes to {label}: it is through",
        "last_watch": f"At the Last Watch, {label} is through",
    }[event.ending]
    return [_say(text[0].upper() + text[1:] + ".")]


def _buried(before: Any, event: NightEnded) -> str:
    """Why the road is buried."""
    if event.ending == "gambit" and any(cart.flung for cart in before.board.wagons):
        return "Fate runs out before the Gambit's tie is broken: the road counts as buried."
    if event.ending == "gambit":
        return "Nothing was flung in the Gambit: the road counts as buried."
    return f"The snow reaches the burial mark ({before.road.burial_mark}): the road is buried."


def _wagon_label(before: Any, wagon: str) -> str:
    """'Mara's food wagon' or 'Mara and Bryn's food wagon', by who has stores or flings aboard."""
    cart = before.board.wagon(wagon)
    owners = sorted({s.seat for s in (*cart.stores, *cart.flung)})
    if not owners:
        return f"the {wagon} wagon"
    return f"{listing([before.road.names[s] for s in owners])}'s {wagon} wagon"


def _paid(before: Any, event: GratitudePaid) -> list[LogEntry]:
    """Each traveller's repayment, line by line."""
    return [
        _say(_repayment(before.road.names[line.seat], line, before.seats[line.seat].gratitude))
        for line in event.lines
        if not before.seats[line.seat].conceded
    ]


def _repayment(name: str, line: Repayment, gratitude: int) -> str:
    """'Mara: stores through +27, pushes +2, wages +4: +33 tonight, 41 in all.'"""
    parts = [
        (label, value)
        for label, value in (
            ("stores through", line.stores_through),
            ("stores lost", line.stores_lost),
            ("pushes", line.pushes),
            ("wages", line.wages),
            ("the Long Watch", line.long_watch),
        )
        if value
    ]
    items = ", ".join(f"{label} {value:+d}" for label, value in parts) or "nothing"
    return f"{name}: {items}: {line.total:+d} tonight, {gratitude + line.total} in all."


def _conceded(before: Any, event: SeatConceded) -> list[LogEntry]:
    """A traveller gives up."""
    return [_say(f"{before.road.names[event.seat]} concedes; their cards are set aside face down.")]


def _road_ended(before: Any, event: RoadEnded) -> list[LogEntry]:
    """The match is over."""
    names = [before.road.names[s] for s in event.winners]
    gratitude = before.seats[event.winners[0]].gratitude
    if len(names) == 1:
        return [_say(f"{names[0]} wins the match with {gratitude} gratitude.")]
    return [_say(f"{listing(names)} share the win with {gratitude} gratitude each.")]


_WRITERS: dict[type, Callable[[Any, Any], list[LogEntry]]] = {
    RoadOpened: _opened,
    NightDealt: _dealt,
    FateFlipped: _flipped,
    PlaysCalled: _called,
    PlayCommitted: _committed,
    PlaysRevealed: _revealed,
    StoreLoaded: _loaded,
    LoadMissed: _missed,
    WagonPushed: _pushed,
    TrailBroken: _broken,
    CardFed: _fed,
    SnowDrifted: _drifted,
    KingRoared: _roared,
    GambitCalled: _gambit,
    CardFlung: _flung,
    WatchKept: _watched,
    LastWatchBegan: _last_watch,
    SnowRose: _rose,
    WagonRolled: _rolled,
    NightEnded: _ended,
    GratitudePaid: _paid,
    SeatConceded: _conceded,
    RoadEnded: _road_ended,
}
