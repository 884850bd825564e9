"""The match log in the rulebook's words (D11): public lines, and private lines for one seat.

Every line is judged against the state just before its event. Public lines never name a card in
a hand or a Candle; a drawn, claimed or seen card is told only to the seats that may know it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.core.decider import LogEntry
from domain.deathwick import events as ev
from domain.deathwick.cards import the
from domain.deathwick.classes import title
from domain.deathwick.labels import action_text


def log_entries(before: Any, event: Any) -> list[LogEntry]:
    """The log lines one event gives, judged against the state just before it."""
    return _WRITERS[type(event)](before, event)


def listing(words: list[str]) -> str:
    """'Ash', 'Ash and Bryn', 'Ash, Bryn and Cato'."""
    if not words:
        return "nobody"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _say(text: str, seat: int | None = None) -> LogEntry:
    """A log line, public unless addressed to one seat."""
    return LogEntry(text=text, seat=seat)


def _cards(found: tuple[int, ...]) -> str:
    """'the 7 of hearts and the ace of spades'."""
    return listing([the(card) for card in found])


def _formed(_: Any, event: ev.CircleFormed) -> list[LogEntry]:
    """The circle forms."""
    decks = "1 deck" if event.decks == 1 else f"{event.decks} decks"
    return [_say(f"{listing(list(event.names))} sit in a circle ({decks}, {event.ritual} "
                 f"ritual); each Candle holds 27 cards. {event.names[event.first]} has the "
                 "coldest hands and goes first.")]


def _drawn(before: Any, event: ev.CardsDrawn) -> list[LogEntry]:
    """A draw: public how many, private which."""
    name, count = before.names[event.seat], len(event.cards)
    many = "a card" if count == 1 else f"{count} cards"
    return [_say(f"{name} draws {many}."), _say(f"You drew {_cards(event.cards)}.", event.seat)]


def _offered(before: Any, event: ev.ClassesOffered) -> list[LogEntry]:
    """Each seat's offer, public like the classes themselves (DH9)."""
    return [_say(f"{before.names[s]} is offered {listing([title(n) for n in offer])}.")
            for s, offer in enumerate(event.offers)]


def _chosen(before: Any, event: ev.ClassChosen) -> list[LogEntry]:
    """A class accepted."""
    return [_say(f"{before.names[event.seat]} accepts the curse of {title(event.name)}.")]


def _round(before: Any, event: ev.RoundBegan) -> list[LogEntry]:
    """A round's arcs."""
    arcs = "; ".join(listing([before.names[s] for s in arc]) for arc in event.arcs)
    return [_say(f"Round {event.round} begins ({arcs}).")]


def _step(before: Any, event: ev.StepBegan) -> list[LogEntry]:
    """Who acts now."""
    who = listing([before.names[s] for s in event.seats])
    verb = "takes a turn" if len(event.seats) == 1 else "take their turns at once"
    return [_say(f"{who} {verb}.")]


def _turn(before: Any, event: ev.TurnBegan) -> list[LogEntry]:
    """A turn begins."""
    return [_say(f"{before.names[event.seat]}'s turn begins.")]


def _burned(before: Any, event: ev.CardBurned) -> list[LogEntry]:
    """A Burn."""
    return [_say(f"{before.names[event.seat]} burns {the(event.card)}.")]


def _declared(before: Any, event: ev.ActionDeclared) -> list[LogEntry]:
    """The action, as the rulebook says it."""
    return [_say(action_text(before.names, event.seat, event.action) + ".")]


def _awaited(before: Any, event: ev.ReactionAwaited) -> list[LogEntry]:
    """A window opens."""
    name = before.names[event.seat]
    if event.salt_by is None:
        return [_say(f"{name} may answer.")]
    return [_say(f"{name} may answer {before.names[event.salt_by]}'s Salt.")]


def _salted(before: Any, event: ev.SaltThrown) -> list[LogEntry]:
    """'Bryn answers with Salt', or the attacker's counter."""
    declared = before.declared
    name = before.names[event.seat]
    if declared is not None and declared.seat == event.seat:
        return [_say(f"{name} counters with Salt ({the(event.card)}).")]
    return [_say(f"{name} answers with Salt ({the(event.card)}).")]


def _allowed(before: Any, event: ev.Allowed) -> list[LogEntry]:
    """An allow."""
    return [_say(f"{before.names[event.seat]} allows it.")]


def _haunt_cancelled(before: Any, event: ev.HauntCancelled) -> list[LogEntry]:
    """The Unseen's discard or the Hex's matching rank."""
    name = before.names[event.seat]
    how = "reveals" if event.power == "hex" else "discards"
    return [_say(f"{name}, {title(event.power)}, {how} {the(event.card)} and cancels the Haunt.")]


def _cancelled(before: Any, event: ev.ActionCancelled) -> list[LogEntry]:
    """The action fails; its card goes to The Dark."""
    declared = before.declared
    name = before.names[event.seat]
    card = "" if declared.card is None else f" {the(declared.card)} goes to The Dark"
    ends = f" and {name}'s turn ends" if event.ends_turn else ""
    return [_say(f"{name}'s action is cancelled;{card}{ends}.".replace(";.", "."))]


def _retargeted(before: Any, event: ev.ActionRetargeted) -> list[LogEntry]:
    """The Watcher looks the other way."""
    return [_say(f"{before.names[event.seat]}'s Sight turns to {before.names[event.target]}.")]


def _haunted(before: Any, event: ev.Haunted) -> list[LogEntry]:
    """The ghost arrives."""
    return [_say(f"{the(before.declared.card).capitalize()} haunts "
                 f"{before.names[event.target]}'s Shadow.")]


def _risen(before: Any, event: ev.GhostRisen) -> list[LogEntry]:
    """BOO!'s number card."""
    return [_say(f"{the(event.card).capitalize()} rises from {before.names[event.seat]}'s Candle "
                 "as a ghost.")]


def _seen(before: Any, event: ev.HandSeen) -> list[LogEntry]:
    """Public that a hand was seen; the looker alone learns it."""
    names = before.names
    seen = _cards(event.cards) if event.cards else "no cards"
    return [_say(f"{names[event.seat]} sees {names[event.target]}'s hand."),
            _say(f"You see {names[event.target]}'s hand: {seen}.", event.seat)]


def _scared(before: Any, event: ev.CardsScared) -> list[LogEntry]:
    """The blind discards, face up."""
    return [_say(f"{before.names[event.target]} discards {_cards(event.cards)} to The Dark.")]


def _drained(before: Any, event: ev.CandleDrained) -> list[LogEntry]:
    """A Drain (no one sees the card)."""
    names = before.names
    return [_say(f"{names[event.seat]} drains the top card of {names[event.target]}'s Candle "
                 "onto their own.")]


def _claimed(before: Any, event: ev.CardClaimed) -> list[LogEntry]:
    """A Claim: public that it happened, private which card."""
    names = before.names
    return [_say(f"{names[event.seat]} claims a card from {names[event.target]}'s hand."),
            _say(f"You claimed {the(event.card)} from {names[event.target]}.", event.seat),
            _say(f"{names[event.seat]} claimed your {the(event.card)[4:]}.", event.target)]


def _banished(before: Any, event: ev.GhostBanished) -> list[LogEntry]:
    """A ghost leaves: to The Dark, or Siphoned."""
    name = before.names[event.seat]
    card = before.players[event.seat].shadow[event.index].card
    if event.siphoned:
        return [_say(f"{name} Siphons {the(card)} ghost to the bottom of their Candle.")]
    return [_say(f"{name}'s {the(card)[4:]} ghost is destroyed and goes to The Dark.")]


def _recalled(before: Any, event: ev.GhostRecalled) -> list[LogEntry]:
    """A Recall."""
    names = before.names
    card = before.players[event.owner].shadow[event.index].card
    return [_say(f"{names[event.seat]} recalls {the(card)} ghost from "
                 f"{names[event.owner]}'s Shadow to their hand.")]


def _possessed(before: Any, event: ev.GhostPossessed) -> list[LogEntry]:
    """A Possess."""
    names = before.names
    card = before.players[event.seat].shadow[event.index].card
    return [_say(f"{names[event.seat]} sends {the(card)} ghost into {names[event.target]}'s "
                 "Shadow.")]


def _rekindled(before: Any, event: ev.CandleRekindled) -> list[LogEntry]:
    """Cards from The Dark onto a Candle."""
    return [_say(f"{before.names[event.seat]} puts the top {event.count} of The Dark onto their "
                 "Candle.")]


def _swapped(before: Any, event: ev.ShadowsSwapped) -> list[LogEntry]:
    """A Mirror."""
    names = before.names
    return [_say(f"{names[event.seat]} and {names[event.target]} swap Shadows.")]


def _dark_taken(before: Any, event: ev.DarkTaken) -> list[LogEntry]:
    """The Medium's card from The Dark."""
    return [_say(f"{before.names[event.seat]} takes {the(event.card)} from The Dark.")]


def _flipped(before: Any, event: ev.PanicFlipped) -> list[LogEntry]:
    """A Panic's flip."""
    verdict = "the ghost is beaten" if event.beaten else "not enough"
    return [_say(f"{before.names[event.seat]} flips {the(event.card)}: {verdict}.")]


def _fizzled(before: Any, event: ev.EffectFizzled) -> list[LogEntry]:
    """An effect with nothing to act on."""
    return [_say(f"Nothing happens: {event.why}.")]


def _discarded(before: Any, event: ev.CardDiscarded) -> list[LogEntry]:
    """A Burden discard."""
    return [_say(f"{before.names[event.seat]} discards {the(event.card)}.")]


def _ended(before: Any, event: ev.TurnEnded) -> list[LogEntry]:
    """Am I Alive: yes."""
    return [_say(f"{before.names[event.seat]} is still alive.")]


FATES = {"consumed": "is Consumed by the Darkness", "possessed": "is Possessed",
         "conceded": "concedes"}


def _fallen(before: Any, event: ev.SeatFallen) -> list[LogEntry]:
    """A seat is out; its cards go face up to The Dark."""
    name = before.names[event.seat]
    return [_say(f"{name} {FATES[event.fate]}; {len(event.revealed)} cards go face up to "
                 "The Dark.")]


def _closed(before: Any, event: ev.CircleClosed) -> list[LogEntry]:
    """The match is over."""
    names = [before.names[s] for s in event.winners]
    if len(names) == 1:
        return [_say(f"{names[0]} is the last one standing and wins.")]
    return [_say(f"{listing(names)} share the win.")]


def _silent(_: Any, __: Any) -> list[LogEntry]:
    """An event other lines already tell."""
    return []


_WRITERS: dict[type, Callable[[Any, Any], list[LogEntry]]] = {
    ev.CircleFormed: _formed, ev.CardsDrawn: _drawn, ev.ClassesOffered: _offered,
    ev.ClassChosen: _chosen, ev.RoundBegan: _round, ev.StepBegan: _step, ev.TurnBegan: _turn,
    ev.CardBurned: _burned, ev.ActionDeclared: _declared, ev.ReactionAwaited: _awaited,
    ev.SaltThrown: _salted, ev.Allowed: _allowed, ev.HauntCancelled: _haunt_cancelled,
    ev.ActionCancelled: _cancelled, ev.ActionRetargeted: _retargeted, ev.Haunted: _haunted,
    ev.GhostRisen: _risen, ev.HandSeen: _seen, ev.CardsScared: _scared,
    ev.CandleDrained: _drained, ev.CardClaimed: _claimed, ev.GhostBanished: _banished,
    ev.GhostRecalled: _recalled, ev.GhostPossessed: _possessed, ev.CandleRekindled: _rekindled,
    ev.ShadowsSwapped: _swapped, ev.DarkTaken: _dark_taken, ev.PanicFlipped: _flipped,
    ev.EffectFizzled: _fizzled, ev.ActionResolved: _silent, ev.CardDiscarded: _discarded,
    ev.RitualDone: _silent, ev.TurnEnded: _ended, ev.SeatFallen: _fallen,
    ev.CircleClosed: _closed,
}
