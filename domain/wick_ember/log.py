"""The match log in the rulebook's words: public lines, and private lines for one seat (W16).

Every line is judged against the state just before its event.  Public lines never name a
hidden card; a Lensmaker's look is public, the rank it saw is told only to the looker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.decider import LogEntry
from domain.wick_ember import cards
from domain.wick_ember.cards import CHOOSES_A_SEAT, FERRYWOMAN, LAMP_WARDEN, name_of, title
from domain.wick_ember.events import (
    CardDiscarded,
    CardPlayed,
    CardSeen,
    CardsPassed,
    DawnBroke,
    Event,
    FlamesCompared,
    FlameSnuffed,
    GuessJudged,
    NightBegan,
    NightEnded,
    ReplacementDrawn,
    RoundDealt,
    RoundWon,
    SeatConceded,
    SeatVeiled,
    SetAsideRevealed,
    TurnBegan,
)
from domain.wick_ember.state import State, Unlit, open_seats


def log_entries(before: State | Unlit, event: Event) -> list[LogEntry]:
    """The log lines one event gives, judged against the state just before it."""
    return _WRITERS[type(event)](before, event)


def listing(words: list[str]) -> str:
    """'Ash', 'Ash and Bryn', 'Ash, Bryn and Cato'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _say(text: str, seat: int | None = None) -> LogEntry:
    """A log line, public unless addressed to one seat."""
    return LogEntry(text=text, seat=seat)


def _the(card: int) -> str:
    """'the Gale' for a physical card."""
    return f"the {cards.shown_title(card)}"


def _night_began(_: Unlit, event: NightBegan) -> list[LogEntry]:
    """The table is set."""
    return [
        _say(
            f"{listing(list(event.names))} light their lanterns; the first to "
            f"{event.ember_target} embers wins the night ({event.deck} deck)."
        )
    ]


def _round_dealt(before: Any, event: RoundDealt) -> list[LogEntry]:
    """A new round: its opener, its set-asides, and each seat's first card (privately)."""
    names = before.night.names
    lines = [
        _say(f"Round {event.round}: {names[event.opener]} opens; one card is set aside face down.")
    ]
    if event.face_up:
        lines.append(_say(f"Set aside face up: {listing([_the(c) for c in event.face_up])}."))
    lines += [
        _say(f"You were dealt {_the(c)}.", s) for s, c in enumerate(event.hands) if c is not None
    ]
    return lines


def _turn_began(before: Any, event: TurnBegan) -> list[LogEntry]:
    """A turn begins: the veil drops, a card is drawn."""
    name = before.night.names[event.seat]
    lines = [_say(f"{name}'s veil drops.")] if before.seats[event.seat].veiled else []
    left = len(before.round.draw_pile) - 1
    return [
        *lines,
        _say(f"{name} draws a card ({left} left)."),
        _say(f"You drew {_the(event.drew)}.", event.seat),
    ]


def _card_played(before: Any, event: CardPlayed) -> list[LogEntry]:
    """A card goes face up into a lantern log."""
    names, card = before.night.names, name_of(event.card)
    text = f"{names[event.seat]} played {_the(event.card)}"
    if event.target is not None:
        text += f" on {names[event.target]}"
    if event.guess is not None:
        text += f", naming the {title(event.guess)}"
    if card in CHOOSES_A_SEAT and event.target is None:
        text += "; it finds no one"
    if card == FERRYWOMAN and len(open_seats(before)) < 2:
        text += "; fewer than two seats can pass, so nothing happens"
    return [_say(text + ".")]


def _guess_judged(before: Any, event: GuessJudged) -> list[LogEntry]:
    """A Lamp Warden's guess and its result, public."""
    verdict = "a hit" if event.hit else "a miss"
    name = before.night.names[event.seat]
    return [_say(f"{name}'s {title(LAMP_WARDEN)} named the {title(event.guess)}: {verdict}.")]


def _card_seen(before: Any, event: CardSeen) -> list[LogEntry]:
    """Everyone sees the look; only the looker learns the card (W7)."""
    names = before.night.names
    return [
        _say(f"{names[event.seat]} looked at {names[event.target]}'s hidden card."),
        _say(f"You saw {names[event.target]}'s card: {cards.shown_title(event.card)}", event.seat),
    ]


def _flames_compared(before: Any, event: FlamesCompared) -> list[LogEntry]:
    """A Gale's comparison: the lower flame, or equal flames (W8)."""
    names = before.night.names
    pair = f"{names[event.seat]} and {names[event.target]} compare flames"
    if event.loser is None:
        return [_say(f"{pair}: equal flames.")]
    return [_say(f"{pair}: {names[event.loser]}'s is lower.")]


def _seat_veiled(before: Any, event: SeatVeiled) -> list[LogEntry]:
    """A Veilkeeper's veil goes up."""
    return [_say(f"{before.night.names[event.seat]} is veiled until their next turn.")]


def _card_discarded(before: Any, event: CardDiscarded) -> list[LogEntry]:
    """A Sootsweep's discard, face up."""
    name = before.night.names[event.seat]
    return [_say(f"{name} discards {_the(event.card)} into the ash without resolving it.")]


def _replacement_drawn(before: Any, event: ReplacementDrawn) -> list[LogEntry]:
    """The swept seat's replacement: a draw, or the face-down set-aside (W10)."""
    name = before.night.names[event.seat]
    if event.from_set_aside:
        public = f"The deck is empty, so {name} takes the face-down set-aside."
    else:
        public = f"{name} draws a replacement."
    return [_say(public), _say(f"You drew {_the(event.card)}.", event.seat)]


def _cards_passed(before: Any, event: CardsPassed) -> list[LogEntry]:
    """A Ferrywoman's pass: public who, private what (W11)."""
    names, ring = before.night.names, event.seats
    who = listing([names[s] for s in ring])
    how = "trade hidden cards" if len(ring) == 2 else "pass their hidden cards clockwise"
    lines = [_say(f"{who} {how}.")]
    for i, seat in enumerate(ring):
        given, got = before.seats[seat].hand[0], before.seats[ring[i - 1]].hand[0]
        following = ring[(i + 1) % len(ring)]
        giver = names[ring[i - 1]]
        text = (
            f"You passed {_the(given)} to {names[following]} and received {_the(got)} from {giver}."
        )
        lines.append(_say(text, seat))
    return lines


def _flame_snuffed(before: Any, event: FlameSnuffed) -> list[LogEntry]:
    """A flame goes out; its hand is shown."""
    text = f"{before.night.names[event.seat]}'s flame is snuffed"
    return [_say(text + _to_ash(event.revealed))]


def _seat_conceded(before: Any, event: SeatConceded) -> list[LogEntry]:
    """A seat gives up the match (W15)."""
    return [_say(f"{before.night.names[event.seat]} concedes the match" + _to_ash(event.revealed))]


def _to_ash(revealed: tuple[int, ...]) -> str:
    """'; the Gale goes to the ash.' or '.'."""
    if not revealed:
        return "."
    verb = "goes" if len(revealed) == 1 else "go"
    return f"; {listing([_the(c) for c in revealed])} {verb} to the ash."


def _dawn_broke(before: Any, event: DawnBroke) -> list[LogEntry]:
    """The deck is out: every lit seat shows its card (W13)."""
    names = before.night.names
    shown = [f"{names[s]} shows {_the(c)}" for s, c in enumerate(event.revealed) if c is not None]
    return [_say(f"Dawn: the deck is empty. {listing(shown)}.")]


def _round_won(before: Any, event: RoundWon) -> list[LogEntry]:
    """The round's winners bank their embers."""
    names, target = before.night.names, before.night.ember_target
    if len(event.winners) == 1:
        seat = event.winners[0]
        embers = before.seats[seat].embers + 1
        return [_say(f"{names[seat]} wins the round and banks an ember ({embers} of {target}).")]
    who = listing([names[s] for s in event.winners])
    return [_say(f"{who} share the round; each banks an ember.")]


def _set_aside_revealed(_: Any, event: SetAsideRevealed) -> list[LogEntry]:
    """The face-down set-aside is turned up, or the log says a Sootsweep dealt it."""
    if event.card is None:
        return [_say("A Sootsweep dealt the face-down set-aside.")]
    return [_say(f"The face-down set-aside was {_the(event.card)}.")]


def _night_ended(before: Any, event: NightEnded) -> list[LogEntry]:
    """The match is over."""
    names = [before.night.names[s] for s in event.winners]
    if len(names) == 1:
        return [_say(f"{names[0]} wins the night.")]
    return [_say(f"{listing(names)} share the win.")]


_WRITERS: dict[type, Callable[[Any, Any], list[LogEntry]]] = {
    NightBegan: _night_began,
    RoundDealt: _round_dealt,
    TurnBegan: _turn_began,
    CardPlayed: _card_played,
    GuessJudged: _guess_judged,
    CardSeen: _card_seen,
    FlamesCompared: _flames_compared,
    SeatVeiled: _seat_veiled,
    CardDiscarded: _card_discarded,
    ReplacementDrawn: _replacement_drawn,
    CardsPassed: _cards_passed,
    FlameSnuffed: _flame_snuffed,
    SeatConceded: _seat_conceded,
    DawnBroke: _dawn_broke,
    RoundWon: _round_won,
    SetAsideRevealed: _set_aside_revealed,
    NightEnded: _night_ended,
}
