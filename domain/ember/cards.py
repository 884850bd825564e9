"""Ember's card set, read once from cards.toml (the one table every other file reads).

The wizard cards (E1) are generated here: 52 numbered cards ``air-1`` .. ``water-13`` and three
Archmages ``archmage-1`` .. ``archmage-3`` (shown as ``archmage``: the three are alike). The
creatures, dragon parts, artifacts and tutors (E2) are frozen records parsed from the TOML file
by the standard library's tomllib and checked by msgspec, so a typo fails at import.

Each rules version has its card set (``card_set(version)``): version 1's tables, with the
``[[change]]`` records of every version up to it applied. A change gives a card a new VP, cost
or ability; ids, names, kinds and elements are the same in every version, so ``CARDS`` (version
1's records) answers those, and a match reads VP, costs and abilities from its own version's set
(``domain.ember.board.card_of``).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Literal

import msgspec

ELEMENTS = ("air", "earth", "fire", "water")
NUMBERS = range(1, 14)
ARCHMAGE = "archmage"
ARCHMAGES = tuple(f"{ARCHMAGE}-{n}" for n in (1, 2, 3))
WIZARD_CARDS = tuple(f"{e}-{n}" for e in ELEMENTS for n in NUMBERS) + ARCHMAGES
PARTS = ("tail", "body", "head")
CARD_FILE = Path(__file__).with_name("cards.toml")

Kind = Literal["exhaust", "ongoing", "drain", "score"]
SetRuleName = Literal["same_number", "run", "same_element", "each_element", "element_run"]


class Ability(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One ability (E4): its name, when it works and one typed effect of the vocabulary."""

    name: str
    kind: Kind
    effect: Literal["draw", "scavenge", "advance", "regress", "burn", "regenerate", "steal",
                    "discard", "hand_size", "extra_draw", "ward", "score"]
    n: int = 0
    max_vp: int = 0
    per: Literal["", "element", "dragon_part", "artifact", "lesser", "ongoing"] = ""
    element: str = ""
    vp: int = 0


class WizardSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A named set of wizard cards (E3): 'pair' is two of one number."""

    rule: SetRuleName
    size: int
    text: str


class Need(msgspec.Struct, frozen=True, kw_only=True):
    """One set a cost asks for, optionally of one element ('coven4:fire')."""

    set: str
    element: str | None = None


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A card that is conjured and lies in play: a creature, a dragon part or an artifact."""

    id: str
    name: str
    kind: Literal["creature", "dragon", "artifact"]
    vp: int
    cost: tuple[Need, ...]
    abilities: tuple[Ability, ...]
    element: str | None = None
    spectral: bool = False
    dragon: str | None = None
    part: int = 0  # dragon parts: 1 tail, 2 body, 3 head

    @property
    def group(self) -> int:
        """The Pool group a creature lies in: its VP, without a Spectral's sign."""
        return abs(self.vp)

    def ability(self, kind: Kind) -> Ability | None:
        """The card's ability of one kind, if it has one."""
        return next((a for a in self.abilities if a.kind == kind), None)


class Dragon(msgspec.Struct, frozen=True, kw_only=True):
    """An Elemental Dragon: its three parts (tail, body, head ids) and its Legendary ability."""

    id: str
    name: str
    element: str
    legendary: Ability
    parts: tuple[str, str, str]


class Tutor(msgspec.Struct, frozen=True, kw_only=True):
    """A Tutor: one end-of-game score modifier, dealt face down."""

    id: str
    name: str
    ability: Ability


class _Part(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A dragon part as cards.toml writes it."""

    vp: int
    cost: list[str]
    ability: Ability


class _Creature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A creature as cards.toml writes it."""

    id: str
    name: str
    vp: int
    element: str
    cost: list[str]
    ability: Ability
    spectral: bool = False


class _Dragon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A dragon as cards.toml writes it."""

    id: str
    name: str
    element: str
    legendary: Ability
    tail: _Part
    body: _Part
    head: _Part


class _Artifact(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An artifact as cards.toml writes it."""

    id: str
    name: str
    cost: list[str]
    ongoing: Ability
    exhaust: Ability
    drain: Ability


class Change(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A later rules version's change to one card or tutor: a new VP, cost or ability (replacing
    the ability of the same kind), and why."""

    version: str
    id: str
    why: str
    vp: int | None = None
    cost: list[str] | None = None
    ability: Ability | None = None


class _Raw(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """cards.toml as written."""

    sets: dict[str, WizardSet]
    creature: list[_Creature]
    dragon: list[_Dragon]
    artifact: list[_Artifact]
    tutor: list[Tutor]
    change: list[Change] = []


class CardSet(msgspec.Struct, frozen=True, kw_only=True):
    """The whole card set of one rules version, parsed and checked, and the changes that made it
    from version 1's."""

    version: str
    sets: dict[str, WizardSet]
    cards: dict[str, Card]
    dragons: dict[str, Dragon]
    tutors: dict[str, Tutor]
    changes: tuple[Change, ...] = ()


def _needs(names: list[str], sets: dict[str, WizardSet]) -> tuple[Need, ...]:
    """A cost's set names ('coven4:fire') as Needs; an unknown set or element fails loudly."""
    needs = []
    for name in names:
        set_name, _, element = name.partition(":")
        if set_name not in sets or (element and element not in ELEMENTS):
            raise ValueError(f"cards.toml: unknown set {name!r}")
        needs.append(Need(set=set_name, element=element or None))
    return tuple(needs)


def _creature(raw: _Creature, sets: dict[str, WizardSet]) -> Card:
    """A creature record."""
    return Card(id=raw.id, name=raw.name, kind="creature", vp=raw.vp,
                cost=_needs(raw.cost, sets), abilities=(raw.ability,), element=raw.element,
                spectral=raw.spectral)


def _dragon(raw: _Dragon, sets: dict[str, WizardSet]) -> tuple[Dragon, list[Card]]:
    """A dragon and its three part records."""
    cards = [Card(id=f"{raw.id}_{part}", name=f"{part.title()} of {raw.name}", kind="dragon",
                  vp=body.vp, cost=_needs(body.cost, sets), abilities=(body.ability,),
                  element=raw.element, dragon=raw.id, part=number)
             for number, (part, body) in enumerate(zip(PARTS, (raw.tail, raw.body, raw.head)),
                                                   start=1)]
    parts = (cards[0].id, cards[1].id, cards[2].id)
    return Dragon(id=raw.id, name=raw.name, element=raw.element, legendary=raw.legendary,
                  parts=parts), cards


def _artifact(raw: _Artifact, sets: dict[str, WizardSet]) -> Card:
    """An artifact record: ongoing, exhaust and drain abilities, 0 VP (E6)."""
    return Card(id=raw.id, name=raw.name, kind="artifact", vp=0, cost=_needs(raw.cost, sets),
                abilities=(raw.ongoing, raw.exhaust, raw.drain))


@functools.cache
def _raw() -> _Raw:
    """cards.toml, parsed once."""
    return msgspec.convert(tomllib.loads(CARD_FILE.read_text("utf-8")), _Raw)


def _changed(card: Card, change: Change, sets: dict[str, WizardSet]) -> Card:
    """A card with one change applied."""
    abilities = card.abilities
    if change.ability is not None:
        kind = change.ability.kind
        if card.ability(kind) is None:
            raise ValueError(f"cards.toml: {card.id} has no {kind} ability to change")
        abilities = tuple(change.ability if a.kind == kind else a for a in abilities)
    return msgspec.structs.replace(
        card, vp=card.vp if change.vp is None else change.vp, abilities=abilities,
        cost=card.cost if change.cost is None else _needs(change.cost, sets))


def _apply(change: Change, cards: dict[str, Card], tutors: dict[str, Tutor],
           sets: dict[str, WizardSet]) -> None:
    """Apply one change to the card or tutor it names; an unknown id fails loudly."""
    if change.id in cards:
        cards[change.id] = _changed(cards[change.id], change, sets)
    elif change.id in tutors and change.ability is not None and change.vp is None \
            and change.cost is None:
        tutors[change.id] = msgspec.structs.replace(tutors[change.id], ability=change.ability)
    else:
        raise ValueError(f"cards.toml: a change to {change.id!r} that fits no card or tutor")


@functools.cache
def card_set(version: str = "1") -> CardSet:
    """The card set of one rules version: version 1's tables, with every change up to it."""
    raw = _raw()
    cards: dict[str, Card] = {}
    dragons: dict[str, Dragon] = {}
    cards.update((c.id, _creature(c, raw.sets)) for c in raw.creature)
    for entry in raw.dragon:
        dragon, parts = _dragon(entry, raw.sets)
        dragons[dragon.id] = dragon
        cards.update((part.id, part) for part in parts)
    cards.update((a.id, _artifact(a, raw.sets)) for a in raw.artifact)
    tutors = {tutor.id: tutor for tutor in raw.tutor}
    changes = tuple(c for c in raw.change if int(c.version) <= int(version))
    for change in changes:
        _apply(change, cards, tutors, raw.sets)
    return CardSet(version=version, sets=raw.sets, cards=cards, dragons=dragons, tutors=tutors,
                   changes=changes)


CARDS = card_set().cards  # version 1's records: ids, names, kinds and elements hold in every one
SETS = card_set().sets
DRAGONS = card_set().dragons
TUTORS = card_set().tutors
CREATURES = tuple(c.id for c in CARDS.values() if c.kind == "creature")
DRAGON_PARTS = tuple(c.id for c in CARDS.values() if c.kind == "dragon")
ARTIFACTS = tuple(c.id for c in CARDS.values() if c.kind == "artifact")


def element_of(card: str) -> str | None:
    """A wizard card's element; None for an Archmage."""
    head, _, _ = card.partition("-")
    return None if head == ARCHMAGE else head


def number_of(card: str) -> int | None:
    """A wizard card's number; None for an Archmage."""
    head, _, tail = card.partition("-")
    return None if head == ARCHMAGE else int(tail)


def shown(card: str) -> str:
    """A wizard card as views and commands write it: 'fire-7', or 'archmage' for any Archmage."""
    return ARCHMAGE if card.startswith(ARCHMAGE) else card


def spoken(card: str) -> str:
    """A wizard card as a log line says it: 'Fire 7', 'an Archmage'."""
    if card.startswith(ARCHMAGE):
        return "an Archmage"
    element, _, number = card.partition("-")
    return f"{element.title()} {number}"


def listing(words: list[str]) -> str:
    """'Fire 7', 'Fire 7 and Air 2', 'Fire 7, Air 2 and an Archmage'."""
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def title(card: str) -> str:
    """The printed name of a card in play, or of a tutor."""
    if card in TUTORS:
        return TUTORS[card].name
    return CARDS[card].name


def cost_text(needs: tuple[Need, ...]) -> str:
    """A cost in words: 'a pair and a run3', 'a coven4 of fire'."""
    words = [f"{n.set} of {n.element}" if n.element else n.set for n in needs]
    return " + ".join(words)
