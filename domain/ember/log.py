"""The match log in the rulebook's words (E11): public lines, and private lines for one seat.

Every line is judged against the state just before its event. Public lines never name a card in
a hand or in the deck; a card drawn or taken is named only to the seats that see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.decider import LogEntry
from domain.ember import events as ev
from domain.ember.board import card_of
from domain.ember.cards import DRAGONS, listing, spoken, title
from domain.ember.state import Playing
from domain.ember.versions import ruleset_of


def _say(text: str, seat: int | None = None) -> LogEntry:
    """A log line, public unless addressed to one seat."""
    return LogEntry(text=text, seat=seat)


def _cards(cards: tuple[str, ...]) -> str:
    """Wizard cards as a line says them."""
    return listing([spoken(card) for card in cards])


def _count(n: int) -> str:
    """'1 card', '3 cards'."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _dealt(_: Any, e: ev.Dealt) -> list[LogEntry]:
    artifacts = listing([title(card) for card in e.artifacts])
    lines = [_say(f"The Pool is laid out, VP 1 to {e.face_up} face up; the artifacts dealt are "
                  f"{artifacts}. Each wizard is dealt five cards and a face-down Tutor. The Call "
                  f"may be made at {e.call_at} VP.")]
    for seat, (hand, tutor) in enumerate(zip(e.hands, e.tutors)):
        lines.append(_say(f"Your hand: {_cards(hand)}. Your Tutor: {title(tutor)}.", seat))
    return lines


def _turn_began(b: Playing, e: ev.TurnBegan) -> list[LogEntry]:
    return [_say(f"Round {e.round}: {b.names[e.seat]}'s turn. Their creatures advance.")]


def _group_revealed(b: Playing, e: ev.GroupRevealed) -> list[LogEntry]:
    return [_say(f"{b.names[b.turn]} reveals the VP {e.vp} group of the Pool.")]


def _cards_drawn(b: Playing, e: ev.CardsDrawn) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} draws {_count(len(e.cards))}."),
            _say(f"You draw {_cards(e.cards)}.", e.seat)]


def _deck_reshuffled(_: Playing, e: ev.DeckReshuffled) -> list[LogEntry]:
    return [_say(f"The draw deck is empty: the Charred pile ({_count(len(e.deck))}) is shuffled "
                 "into a new draw deck.")]


def _draw_taken(b: Playing, e: ev.DrawTaken) -> list[LogEntry]:
    if e.recycled is None:
        return [_say(f"{b.names[e.seat]} takes a draw.")]
    return [_say(f"{b.names[e.seat]} recycles {spoken(e.recycled)} to draw.")]


def _hand_refreshed(b: Playing, e: ev.HandRefreshed) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} refreshes, discarding {_cards(e.cards)}; no conjuring "
                 "this turn.")]


def _conjured(b: Playing, e: ev.Conjured) -> list[LogEntry]:
    info = card_of(b, e.card)
    where = "" if e.onto == e.seat else f" onto {b.names[e.onto]}"
    return [_say(f"{b.names[e.seat]} conjures the {info.name} ({info.vp} VP){where}, "
                 f"showing {_cards(e.paid)}.")]


def _turn_ended(b: Playing, e: ev.TurnEnded) -> list[LogEntry]:
    name = b.names[e.seat]
    text = f"{name} discards {_cards(e.discarded)} and" if e.discarded else name
    text += " ends the turn."
    if e.called:
        text += f" {name} makes the Call! Every other wizard gets one final turn."
    return [_say(text)]


def _aimed(b: Playing, target: str | None, seat: int | None) -> str:
    """' on Bryn's Gust Finch', ' on Bryn', or nothing; a Burned card is not named (E11; from
    version 2 it is, EH19)."""
    if target is not None:
        owner = next(o for o, w in enumerate(b.seats) if any(h.card == target for h in w.cards))
        held = next(h for h in b.seats[owner].cards if h.card == target)
        if held.burned and not ruleset_of(b).regenerate_any:
            return f" on a Burned card of {b.names[owner]}'s"
        if held.burned:
            return f" on {b.names[owner]}'s Burned {title(target)}"
        return f" on {b.names[owner]}'s {title(target)}"
    return "" if seat is None else f" on {b.names[seat]}"


def _ability_used(b: Playing, e: ev.AbilityUsed) -> list[LogEntry]:
    info = card_of(b, e.card)
    if e.power == "legendary":
        dragon = DRAGONS[info.dragon or ""]
        what = f"exhausts the {info.name} for {dragon.name}'s Legendary {dragon.legendary.name}"
    elif e.power == "drain":
        ability = info.ability("drain")
        what = f"drains the {info.name} for {ability.name if ability else ''}"
    else:
        ability = info.ability("exhaust")
        what = f"exhausts the {info.name} for {ability.name if ability else ''}"
    return [_say(f"{b.names[e.seat]} {what}{_aimed(b, e.target, e.target_seat)}.")]


def _archmage_played(b: Playing, e: ev.ArchmagePlayed) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} plays an Archmage to {e.effect}"
                 f"{_aimed(b, e.target, None)}.")]


def _card_turned(b: Playing, e: ev.CardTurned) -> list[LogEntry]:
    return [_say(f"The {title(e.card)} turns {e.turned}.")]


def _creature_burned(b: Playing, e: ev.CreatureBurned) -> list[LogEntry]:
    return [_say(f"The {title(e.card)} is Burned, face down.")]


def _creature_regenerated(b: Playing, e: ev.CreatureRegenerated) -> list[LogEntry]:
    return [_say(f"The {title(e.card)} is Regenerated, face up and Ready.")]


def _cards_taken(b: Playing, e: ev.CardsTaken) -> list[LogEntry]:
    taker, victim = b.names[e.seat], b.names[e.source]
    return [_say(f"{taker} takes {_count(len(e.cards))} at random from {victim}'s hand."),
            _say(f"You take {_cards(e.cards)}.", e.seat),
            _say(f"{taker} takes your {_cards(e.cards)}.", e.source)]


def _cards_discarded(b: Playing, e: ev.CardsDiscarded) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} discards {_cards(e.cards)} at random.")]


def _charred_taken(b: Playing, e: ev.CharredTaken) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} takes {_cards(e.cards)} from the Charred pile.")]


def _closing_began(b: Playing, e: ev.ClosingBegan) -> list[LogEntry]:
    why = f"Round {b.turn_cap} is over (the turn cap)" if e.capped else "The final turns are over"
    return [_say(f"{why}: the last round of abilities begins with {b.names[e.seat]}; it ends "
                 "when every wizard passes in a row.")]


def _passed(b: Playing, e: ev.Passed) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} passes.")]


def _seat_conceded(b: Playing, e: ev.SeatConceded) -> list[LogEntry]:
    return [_say(f"{b.names[e.seat]} concedes the match.")]


def _match_ended(b: Playing, e: ev.MatchEnded) -> list[LogEntry]:
    lines = [_say(f"{b.names[seat]} reveals the {title(tutor)}: {e.scores[seat]} VP "
                  f"(hand worth {e.sums[seat]}).") for seat, tutor in enumerate(e.tutors)]
    winners = listing([b.names[seat] for seat in e.winners])
    verb = "wins" if len(e.winners) == 1 else "share the win"
    return [*lines, _say(f"{winners} {verb}.")]


_WRITERS: dict[type, Callable[[Any, Any], list[LogEntry]]] = {
    ev.Dealt: _dealt,
    ev.TurnBegan: _turn_began,
    ev.GroupRevealed: _group_revealed,
    ev.CardsDrawn: _cards_drawn,
    ev.DeckReshuffled: _deck_reshuffled,
    ev.DrawTaken: _draw_taken,
    ev.HandRefreshed: _hand_refreshed,
    ev.Conjured: _conjured,
    ev.TurnEnded: _turn_ended,
    ev.AbilityUsed: _ability_used,
    ev.ArchmagePlayed: _archmage_played,
    ev.CardTurned: _card_turned,
    ev.CreatureBurned: _creature_burned,
    ev.CreatureRegenerated: _creature_regenerated,
    ev.CardsTaken: _cards_taken,
    ev.CardsDiscarded: _cards_discarded,
    ev.CharredTaken: _charred_taken,
    ev.ClosingBegan: _closing_began,
    ev.Passed: _passed,
    ev.SeatConceded: _seat_conceded,
    ev.MatchEnded: _match_ended,
}


def log_entries(before: Any, event: Any) -> list[LogEntry]:
    """The log lines one event gives, judged against the state just before it."""
    return _WRITERS[type(event)](before, event)
