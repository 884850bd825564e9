"""The card set of docs/rules/ember.md, written from cards.toml, so the page never drifts.

``python -m tests.domain.ember.card_doc --write`` rewrites the part of the page between its
markers; test_ember_docs.py fails while the page and the table differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from domain.ember.cards import ARTIFACTS, CARDS, CREATURES, DRAGONS, SETS, TUTORS, Ability
from domain.ember.cards import cost_text as _cost
from tests.domain.ember.odds import odds

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "ember.md"
BEGIN, END = "<!-- card set: begin (generated) -->", "<!-- card set: end -->"


def says(ability: Ability) -> str:
    """An ability in words: 'Spark (exhaust): draw 1'."""
    if ability.effect == "score":
        return f"{ability.name}: {_score(ability)}"
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


def _score(ability: Ability) -> str:
    """A tutor's modifier in words."""
    per = {"element": f"{ability.element.title()} card", "dragon_part": "dragon part",
           "artifact": "artifact", "lesser": f"creature of VP 1 to {ability.max_vp}"}
    return f"+{ability.vp} VP per face-up {per[ability.per]} you control"


def cards_markdown() -> str:
    """The whole card set as markdown tables."""
    lines = ["### Named sets (E3)", "", "| set | cards |", "|---|---|"]
    lines += [f"| {name} | {s.text} |" for name, s in SETS.items()]
    lines += ["", "### The Pool: 39 creatures (E2)", "",
              "A cost's share is how many random five-card hands pay it "
              "(tests/domain/ember/odds.py).", "",
              "| VP | creature | element | cost (share of hands) | ability |",
              "|---|---|---|---|---|"]
    for card in sorted((CARDS[c] for c in CREATURES), key=lambda c: (c.group, c.id)):
        name = f"{card.name} (Spectral)" if card.spectral else card.name
        lines.append(f"| {card.vp} | {name} | {card.element} | {_cost(card.cost)} "
                     f"({100 * odds(card.cost):.1f}%) | {says(card.abilities[0])} |")
    lines += ["", "### The Elemental Dragons (E2)", "",
              "| dragon | part | VP | full cost | ability |", "|---|---|---|---|---|"]
    for dragon in DRAGONS.values():
        for part in dragon.parts:
            card = CARDS[part]
            lines.append(f"| {dragon.name} | {card.name} | {card.vp} | {_cost(card.cost)} | "
                         f"{says(card.abilities[0])} |")
        lines.append(f"| {dragon.name} | Legendary | | all three parts, one Ready | "
                     f"{says(dragon.legendary)} |")
    lines += ["", "### The Artifacts (E6), three dealt each game", "",
              "| artifact | cost | ongoing | exhaust | drain |", "|---|---|---|---|---|"]
    for card in (CARDS[a] for a in ARTIFACTS):
        lines.append(f"| {card.name} | {_cost(card.cost)} | "
                     + " | ".join(says(a) for a in card.abilities) + " |")
    lines += ["", "### The Tutors (E2), one dealt face down to each player", "",
              "| tutor | modifier |", "|---|---|"]
    lines += [f"| {t.name} | {says(t.ability)} |" for t in TUTORS.values()]
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
