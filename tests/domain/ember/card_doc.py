"""The card set of docs/rules/ember.md, written from cards.toml, so the page never drifts.

``python -m tests.domain.ember.card_doc --write`` rewrites the part of the page between its
markers; test_ember_docs.py fails while the page and the table differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from domain.ember import GAME
from domain.ember.cards import ARTIFACTS, CREATURES, Card, CardSet, Change, Tutor, card_set
from domain.ember.cards import cost_text as _cost
from domain.ember.texts import says
from domain.ember.versions import RULESETS
from tests.domain.ember.odds import HANDS, counted_costs, hands, odds

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "ember.md"
BEGIN, END = "<!-- card set: begin (generated) -->", "<!-- card set: end -->"


def _costs(cards: CardSet) -> list[str]:
    """The named sets, and every cost with the hands that pay it, counted exactly."""
    lines = ["### Named sets (E3)", "", "| set | cards |", "|---|---|"]
    lines += [f"| {name} | {s.text} |" for name, s in cards.sets.items()]
    lines += ["", f"### Costs: how many of the {HANDS:,} five-card hands pay each (E3)", "",
              "Every hand counted, none sampled (tests/domain/ember/odds.py, shares.toml); an "
              "Archmage stands for any card.", "",
              "| cost | hands | share |", "|---|---|---|"]
    lines += [f"| {_cost(cost)} | {hands(cost):,} | {100 * odds(cost):.2f}% |"
              for cost in sorted(counted_costs(), key=lambda c: -hands(c))]
    return lines


def _pool(cards: CardSet, parts: bool) -> list[str]:
    """The 39 creatures in VP order."""
    lines = ["", "### The Pool: 39 creatures (E2)", "",
             "| VP | creature | element | cost (share of hands) | ability |",
             "|---|---|---|---|---|"]
    for card in sorted((cards.cards[c] for c in CREATURES), key=lambda c: (c.group, c.id)):
        name = f"{card.name} (Spectral)" if card.spectral else card.name
        lines.append(f"| {card.vp} | {name} | {card.element} | {_cost(card.cost)} "
                     f"({100 * odds(card.cost):.2f}%) | {says(card.abilities[0], parts)} |")
    return lines


def _rest(cards: CardSet, parts: bool) -> list[str]:
    """The dragons, the artifacts and the tutors."""
    lines = ["", "### The Elemental Dragons (E2)", "",
             "| dragon | part | VP | full cost | ability |", "|---|---|---|---|---|"]
    for dragon in cards.dragons.values():
        for part in dragon.parts:
            card = cards.cards[part]
            lines.append(f"| {dragon.name} | {card.name} | {card.vp} | {_cost(card.cost)} | "
                         f"{says(card.abilities[0], parts)} |")
        lines.append(f"| {dragon.name} | Legendary | | all three parts, one Ready | "
                     f"{says(dragon.legendary, parts)} |")
    lines += ["", "### The Artifacts (E6), three dealt each game", "",
              "| artifact | cost | ongoing | exhaust | drain |", "|---|---|---|---|---|"]
    for card in (cards.cards[a] for a in ARTIFACTS):
        lines.append(f"| {card.name} | {_cost(card.cost)} | "
                     + " | ".join(says(a, parts) for a in card.abilities) + " |")
    lines += ["", "### The Tutors (E2), one dealt face down to each player", "",
              "| tutor | modifier |", "|---|---|"]
    lines += [f"| {t.name} | {says(t.ability, parts)} |" for t in cards.tutors.values()]
    return lines


def _fields(record: Card | Tutor, change: Change, parts: bool) -> str:
    """What a change touches, as the record has it: its VP, cost, or the ability of one kind."""
    if isinstance(record, Tutor):
        return says(record.ability, parts)
    said = [f"VP {record.vp}"] if change.vp is not None else []
    said += [_cost(record.cost)] if change.cost is not None else []
    if change.ability is not None:
        ability = record.ability(change.ability.kind)
        said += [says(ability, parts)] if ability is not None else []
    return "; ".join(said)


def _changes(cards: CardSet) -> list[str]:
    """What each later rules version changed in the cards, and why."""
    lines = ["", f"### The cards rules version {cards.version} changed", "",
             "| card | version 1 | now | why |", "|---|---|---|---|"]
    first, v1 = card_set("1"), RULESETS["1"].parts_are_creatures
    parts = RULESETS[cards.version].parts_are_creatures
    for change in cards.changes:
        old = first.cards.get(change.id) or first.tutors[change.id]
        new = cards.cards.get(change.id) or cards.tutors[change.id]
        lines.append(f"| {old.name} | {_fields(old, change, v1)} | {_fields(new, change, parts)} "
                     f"| {change.why} |")
    return lines


def cards_markdown() -> str:
    """The latest rules version's card set as markdown tables, and what it changed."""
    cards = card_set(GAME.rules_version)
    parts = RULESETS[cards.version].parts_are_creatures
    lines = [f"The card set of rules version {cards.version} (version 1's differs only in the "
             "cards of the last table).", "", *_costs(cards), *_pool(cards, parts),
             *_rest(cards, parts), *_changes(cards)]
    return "\n".join(lines)


def page_with_cards(page: str) -> str:
    """The page with its generated part replaced by the card set as it is now."""
    head, _, rest = page.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{cards_markdown()}\n{END}{tail}"


if __name__ == "__main__":
    if "--write" in sys.argv:
        PAGE.write_text(page_with_cards(PAGE.read_text("utf-8")), "utf-8")
    else:
        print(cards_markdown())
