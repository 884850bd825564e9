"""docs/rules/ember.md lists the whole card set exactly as cards.toml holds it."""

from tests.domain.ember.card_doc import BEGIN, END, PAGE, page_with_cards


def test_the_rules_page_lists_the_card_set_as_the_card_table_has_it():
    """When this fails: python -m tests.domain.ember.card_doc --write."""
    page = PAGE.read_text("utf-8")
    assert BEGIN in page and END in page
    assert page == page_with_cards(page)
