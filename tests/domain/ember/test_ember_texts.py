"""The card set in players' words (Rulebook.cards, served by GET /games/ember): every card of
every rules version, its cost with each set's name explained, its abilities by name."""

from __future__ import annotations

import pytest

from domain.ember import VERSIONS
from domain.ember.cards import card_set

BOOKS = pytest.mark.parametrize("book", VERSIONS, ids=lambda b: f"v{b.rules_version}")


@BOOKS
def test_the_rulebook_serves_every_card_with_a_text_of_its_own(book):
    cards = card_set(book.rules_version)
    codes = [text.code for text in book.cards]
    assert sorted(codes) == sorted([*cards.cards, *cards.dragons, *cards.tutors, "archmage"])
    assert all(text.name and text.text for text in book.cards)
    assert len({text.text for text in book.cards}) == len(book.cards)


@BOOKS
def test_each_card_text_names_its_cost_sets_explained_and_each_of_its_abilities(book):
    cards = card_set(book.rules_version)
    texts = {text.code: text for text in book.cards}
    for card in cards.cards.values():
        text = texts[card.id].text
        assert texts[card.id].name == card.name
        for need in card.cost:
            assert f"{need.set}" in text and cards.sets[need.set].text in text, (card.id, text)
        for ability in card.abilities:
            assert f"{ability.name} (" in text, (card.id, text)
    for dragon in cards.dragons.values():
        assert dragon.legendary.name in texts[dragon.id].text
    for tutor in cards.tutors.values():
        assert tutor.ability.name in texts[tutor.id].text


def test_the_phoenix_reads_as_the_rulebook_prints_it_and_the_archmage_as_each_version_plays_it():
    v1, v2 = ({text.code: text.text for text in book.cards} for book in VERSIONS)
    assert "Cost: a spellbook (four of one number)." in v2["phoenix_of_cinders"]
    assert "Regenerate any one creature in play" in v2["archmage"]
    assert "Regenerate one of your own creatures (EH7)" in v1["archmage"]
    assert ("Rekindle (Drain: Burns the artifact for good; not once the Call is made): take the "
            "top 3 numbered card(s) of the Charred pile.") in v2["urn_of_embers"]
