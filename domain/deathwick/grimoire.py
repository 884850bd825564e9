"""The Grimoire (D6): what each rank does when Cast, one frozen record per rank (0 is the joker).

The one table of it: checks.py reads what a Cast must name and the class rules it checks,
legal.py the ways to Cast a card, windows.py its effect, labels.py its name, and ``text`` says
in a sentence what the card does, for a player reading the table (docs/rules/deathwick.md).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.decider import CardText
from domain.deathwick import cards
from domain.deathwick.effects import (
    Effect,
    boo,
    claim,
    cleanse,
    drain,
    greed,
    medium,
    mirror,
    possess,
    purge,
    recall,
    rekindle,
    scare,
    sight,
)
from domain.deathwick.versions import Ruleset

# What a Cast names besides its card:
# "none": nothing; "choice": one of the record's ``choices``; "neighbour": a neighbour's seat;
# "own_ghost": a ghost of the caster's Shadow, no seat; "any_ghost": a ghost of any Shadow (the
# seat whose Shadow it is, none for the caster's own); "ghost_to_player": a ghost of the
# caster's Shadow and the seat whose Shadow it goes to; "never": never Cast (only a reaction).
Target = Literal["none", "choice", "neighbour", "own_ghost", "any_ghost", "ghost_to_player",
                 "never"]
GHOST_TARGETS = ("own_ghost", "any_ghost", "ghost_to_player")
Choice = Literal["hand", "candle"]  # as CastCard.choice writes them


class Spell(msgspec.Struct, frozen=True, kw_only=True):
    """One rank when Cast: its name, what it names, its effect, the class rules it checks, and
    what it does in a sentence."""

    rank: int
    name: str
    target: Target
    effect: Effect | None  # None: never Cast
    text: str
    choices: tuple[Choice, ...] = ()
    gatekeeper_immune: bool = False  # D3: the Gatekeeper cannot be chosen (its card is not spent)
    bound_ghosts_stay: bool = False  # D3: not a ghost the Sealbinder or the Clown Haunted
    watcher_sees_both: bool = False  # D3, DH2: the Watcher's turns to the other neighbour next
    occultist_reaches_all: bool = False  # D3: the Occultist's reaches any player
    text_v2: str | None = None  # its text from rules version 2, where DH18 or DH19 changed it

    @property
    def names_ghost(self) -> bool:
        """Whether a Cast of it names a ghost."""
        return self.target in GHOST_TARGETS


GRIMOIRE = (
    Spell(rank=0, name="BOO!", target="none", effect=boo,
          text="Every other player Burns from their Candle until a number card, which becomes a "
               "ghost in their Shadow; a Candle that runs out first consumes its owner."),
    Spell(rank=1, name="Sight", target="neighbour", effect=sight, watcher_sees_both=True,
          text="Choose a neighbour: you see their hand (the Watcher: then the other neighbour's)."),
    Spell(rank=2, name="Greed", target="none", effect=greed,
          text="Draw 2 cards from your Candle."),
    Spell(rank=3, name="Scare", target="neighbour", effect=scare,
          text="Choose a neighbour: they shuffle their hand and discard 1 card blindly to The "
               "Dark (the Sadist: 2)."),
    Spell(rank=4, name="Drain", target="neighbour", effect=drain,
          text="Choose a neighbour: the top card of their Candle goes on top of yours."),
    Spell(rank=5, name="Salt", target="never", effect=None,
          text="Never Cast: throw it to cancel an action that targets you."),
    Spell(rank=6, name="Claim", target="neighbour", effect=claim,
          text="Choose a neighbour: take a random card of their hand."),
    Spell(rank=7, name="Cleanse", target="own_ghost", effect=cleanse,
          text="Destroy a ghost of your Shadow (Siphoned on a rank or suit match, never a spade).",
          text_v2="Destroy a ghost of your Shadow (Siphoned on a rank or suit match, never a "
                  "spade or a face card)."),
    Spell(rank=8, name="Recall", target="any_ghost", effect=recall, bound_ghosts_stay=True,
          text="Take a ghost from any Shadow into your hand (not one the Sealbinder or the "
               "Clown Haunted)."),
    Spell(rank=9, name="Possess", target="ghost_to_player", effect=possess,
          gatekeeper_immune=True, bound_ghosts_stay=True, occultist_reaches_all=True,
          text="Move a ghost of your Shadow to a neighbour's Shadow (the Occultist: anyone's; "
               "never the Gatekeeper's)."),
    Spell(rank=10, name="Rekindle", target="none", effect=rekindle,
          text="The top 3 cards of The Dark go on top of your Candle."),
    Spell(rank=11, name="Mirror", target="neighbour", effect=mirror, gatekeeper_immune=True,
          text="Choose a neighbour (not the Gatekeeper) and swap Shadows; the Sealbinder's "
               "ghosts stay where they are.",
          text_v2="Choose a neighbour (not the Gatekeeper) and swap Shadows; the Sealbinder's "
                  "and the Clown's ghosts stay where they are."),
    Spell(rank=12, name="Medium", target="choice", effect=medium, choices=("hand", "candle"),
          text="Choose: the top card of The Dark to your hand, or its top 2 cards onto your "
               "Candle."),
    Spell(rank=13, name="Purge", target="none", effect=purge,
          text="Banish every ghost of your Shadow (a king is Siphoned, never a spade).",
          text_v2="Banish every ghost of your Shadow (a king of your king's suit is Siphoned, "
                  "never a spade)."),
)
BY_RANK = {spell.rank: spell for spell in GRIMOIRE}


def card_texts(ruleset: Ruleset) -> tuple[CardText, ...]:
    """What each rank does when Cast under a rules version, for a player reading the table: the
    joker, then ace to king (a rank is written as in views, without its suit: '7' for 7H...)."""
    codes = (cards.JOKER, *cards.RANK_CODES)
    return tuple(CardText(code=codes[spell.rank], name=spell.name, text=text_of(spell, ruleset))
                 for spell in GRIMOIRE)


def text_of(spell: Spell, ruleset: Ruleset) -> str:
    """A rank's text under a rules version."""
    if int(ruleset.version) >= 2 and spell.text_v2 is not None:
        return spell.text_v2
    return spell.text


def spell_of(card: int) -> Spell:
    """The Grimoire's record for a card's rank."""
    return BY_RANK[cards.rank(card)]
