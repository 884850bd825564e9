"""The card set in words, as a player reads it: each card's cost with its sets' names explained,
and its abilities in the rulebook's words (served with the game: GET /games/ember ``cards``;
the card list of docs/rules/ember.md says abilities the same way)."""

from __future__ import annotations

from domain.core.decider import CardText
from domain.ember.cards import CREATURES, Ability, Card, CardSet, Need, card_set
from domain.ember.versions import RULESETS

KINDS = {
    "exhaust": "Exhaust",
    "ongoing": "Ongoing, while Ready",
    "drain": "Drain: Burns the artifact for good; not once the Call is made",
}


def says(ability: Ability, parts_are_creatures: bool = True) -> str:
    """An ability in words: 'Spark (exhaust): draw 1'; a tutor's: 'Air Lore: +2 VP per ...'."""
    if ability.effect == "score":
        return f"{ability.name}: {_score(ability, parts_are_creatures)}"
    what = {
        "draw": f"draw {ability.n}",
        "scavenge": f"take the top {ability.n} numbered card(s) of the Charred pile",
        "advance": f"advance your other cards {ability.n} step(s)",
        "regress": f"regress an opponent's card {ability.n} step(s)",
        "burn": f"Burn an opponent's creature of VP {ability.max_vp} or less",
        "regenerate": "Regenerate one of your Burned creatures",
        "steal": f"take {ability.n} card(s) at random from an opponent's hand",
        "discard": f"an opponent discards {ability.n} card(s) at random",
        "hand_size": f"hand size {ability.n:+d}",
        "extra_draw": f"draw {ability.n} more in your draw step",
        "ward": "opponents' abilities and Archmages cannot choose your cards",
    }[ability.effect]
    return f"{ability.name} ({ability.kind}): {what}"


def _score(ability: Ability, parts_are_creatures: bool) -> str:
    """A tutor's modifier in words (EH18: a dragon part is a creature from version 2)."""
    creature = "creature (a dragon part too)" if parts_are_creatures else "creature"
    per = {"element": f"{ability.element.title()} card", "dragon_part": "dragon part",
           "artifact": "artifact", "lesser": f"{creature} of VP 1 to {ability.max_vp}",
           "ongoing": f"{creature} with an Ongoing ability"}
    return f"+{ability.vp} VP per face-up {per[ability.per]} you control"


def _a(word: str) -> str:
    """'a pair', 'an ...'."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def cost_words(cost: tuple[Need, ...], cards: CardSet) -> str:
    """A cost with each set's name explained: 'a pair (two of one number) and a run3 (three
    consecutive numbers)'; a set bound to an element says so."""
    words = []
    for need in cost:
        text = cards.sets[need.set].text
        if need.element is None:
            words.append(f"{_a(need.set)} ({text})")
        else:
            words.append(f"{_a(need.set)} of {need.element} ({text}: {need.element})")
    return " and ".join(words)


def _ability_line(ability: Ability, parts: bool) -> str:
    """One ability as a sentence, its kind in the rulebook's words."""
    name, _, what = says(ability, parts).partition(": ")
    name = name.removesuffix(f" ({ability.kind})")
    return f"{name} ({KINDS[ability.kind]}): {what}."


def _card_text(card: Card, cards: CardSet, parts: bool) -> str:
    """What one creature, dragon part or artifact is and costs, and what it does."""
    if card.kind == "artifact":
        what = "Artifact, 0 VP, claimed by conjuring it."
    elif card.spectral:
        what = (f"Spectral, {card.element}, VP {card.vp}: conjured onto an opponent, who loses "
                f"{card.group} VP while it lies in front of them; you gain {card.group} VP tokens.")
    elif card.kind == "dragon":
        dragon = cards.dragons[card.dragon or ""]
        what = (f"Dragon part {card.part} of 3 of {dragon.name} (a creature), {card.element}, "
                f"VP {card.vp}.")
    else:
        what = f"Creature, {card.element}, VP {card.vp}."
    lines = [what, f"Cost: {cost_words(card.cost, cards)}."]
    if card.part > 1:
        lines.append("With its preceding part in front of you, it costs what the lowest part of "
                     "that unbroken chain costs.")
    return " ".join(lines + [_ability_line(a, parts) for a in card.abilities])


def _archmage(regenerate_any: bool) -> CardText:
    """The Archmage's card (E3, E8): wild in a cost, or played for one effect."""
    whose = "any one creature in play" if regenerate_any else "one of your own creatures (EH7)"
    return CardText(code="archmage", name="Archmage", text=(
        "Wizard card without a number (three in the deck, all alike): it stands for any card in a "
        "cost. Or play it from your hand, at any time, onto the Charred pile to Advance one of "
        "your creatures to Ready, or to Burn any one creature in play, or to Regenerate "
        f"{whose}."))


def card_texts(version: str) -> tuple[CardText, ...]:
    """Every card of one rules version as a player reads it: the Pool's creatures in VP order,
    the dragon parts and each dragon's Legendary ability, the artifacts, the tutors, the
    Archmage."""
    cards, ruleset = card_set(version), RULESETS[version]
    parts = ruleset.parts_are_creatures
    pool = sorted(CREATURES, key=lambda c: (cards.cards[c].group, c))
    rest = [c for c in cards.cards if c not in CREATURES]
    texts = [CardText(code=c, name=cards.cards[c].name,
                      text=_card_text(cards.cards[c], cards, parts)) for c in (*pool, *rest)]
    texts += [CardText(code=d.id, name=d.name, text=(
        f"Elemental Dragon, {d.element}: its Tail, Body and Head. With all three in front of you "
        f"and one of them Ready, exhaust a Ready part for its Legendary ability: "
        f"{_ability_line(d.legendary, parts)}")) for d in cards.dragons.values()]
    texts += [CardText(code=t.id, name=t.name, text=(
        f"Tutor, dealt face down and revealed at the end. {says(t.ability, parts)}."))
        for t in cards.tutors.values()]
    return (*texts, _archmage(ruleset.regenerate_any))
