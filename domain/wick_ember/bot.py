"""Wick & Ember's careful bot: it never plays into a known loss and uses what its seat has seen.

It decides from its seat's view only: its hand, its Lensmaker notes and the card counter
(docs/rules/wick-and-ember.md, "Bots"). Every game also has the random bot (domain.core.bots).
"""

from __future__ import annotations

from collections import Counter

from domain.core.rng import Stream
from domain.wick_ember.cards import GALE, GUESSES, HEARTHFLAME, LAMP_WARDEN, RANKS, SOOTSWEEP
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.observer import WickEmberView


def careful(view: WickEmberView, actions: list[PlayCard], stream: Stream) -> PlayCard:
    """A sure win if there is one; else no sure loss, the higher card kept, Wardens guess well."""
    wins = [play for play in actions if sure_win(view, play)]
    if wins:
        return stream.choice(wins)
    safe = [play for play in actions if not sure_loss(view, play)] or actions
    guessed = [play for play in safe if good_guess(view, play)]
    best = max(RANKS[kept(view, play)] for play in guessed)
    return stream.choice([play for play in guessed if RANKS[kept(view, play)] == best])


def unseen(view: WickEmberView) -> Counter[str]:
    """Copies of each card this seat cannot place: the card counter minus its own hand."""
    left = Counter(view.counter)
    left.subtract(view.hand)
    return +left


def possible(view: WickEmberView, target: int) -> set[str]:
    """What the target may hold: the card a Lensmaker note shows, else any card not yet placed."""
    noted = {note.card for note in view.notes if note.seat == target}
    return noted or set(unseen(view))


def kept(view: WickEmberView, play: PlayCard) -> str:
    """The card left in hand once the play is made."""
    hand = list(view.hand)
    hand.remove(play.card)
    return hand[0]


def sure_loss(view: WickEmberView, play: PlayCard) -> bool:
    """A Gale whose kept card is lower than anything the target may hold snuffs its player."""
    if play.card != GALE or play.target is None:
        return False
    theirs = possible(view, play.target)
    return bool(theirs) and all(RANKS[card] > RANKS[kept(view, play)] for card in theirs)


def sure_win(view: WickEmberView, play: PlayCard) -> bool:
    """A play that snuffs its target whatever the target holds."""
    if play.target is None:
        return False
    theirs = possible(view, play.target)
    if play.card == GALE:
        return bool(theirs) and all(RANKS[card] < RANKS[kept(view, play)] for card in theirs)
    if play.card == LAMP_WARDEN:
        return theirs == {play.guess}
    return play.card == SOOTSWEEP and theirs == {HEARTHFLAME}


def good_guess(view: WickEmberView, play: PlayCard) -> bool:
    """Not a Warden's guess, or a guess of a card the target most likely holds."""
    if play.card != LAMP_WARDEN or play.target is None:
        return True
    return play.guess in likeliest(view, play.target)


def likeliest(view: WickEmberView, target: int) -> set[str]:
    """The guessable cards with the most copies the target might hold."""
    left, theirs = unseen(view), possible(view, target)
    odds = {card: left[card] for card in GUESSES if card in theirs and left[card] > 0}
    if not odds:
        return set(GUESSES)
    most = max(odds.values())
    return {card for card, count in odds.items() if count == most}


BOTS = {"careful": careful}
