"""What each seat sees and reads (E11): hands and tutors private, Burned cards face down to all
but their owner, the deck's order never shown; and whole random matches conserve the 55 cards."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.core.rng import Rng
from domain.ember import GAME
from domain.ember.audit import card_locations, secrets
from domain.ember.cards import WIZARD_CARDS
from domain.ember.commands import Conjure, UseAbility
from domain.ember.options import Options
from tests import sampling
from tests.domain.ember.ember_support import Table


def test_e11_a_seat_sees_its_own_hand_and_tutor_and_only_the_sizes_of_others():
    table = Table(seats=3, tutors=["artificer", "dragon_sage", "tutor_of_flame"])
    view = table.view(1)
    assert len(view.hand) == 5 and view.seats[1].tutor == "dragon_sage"
    assert view.seats[0].tutor is None and view.seats[0].cards_in_hand == 5
    assert table.view(None).hand == () and table.view(None).legal_actions == ()


def test_e11_version_1_a_burned_card_is_face_down_and_named_to_its_owner_only():
    table = Table(version="1")
    table.place(0, "starfall_serpent", burned=True)
    mine, theirs = table.view(0).seats[0].cards[0], table.view(1).seats[0].cards[0]
    assert mine.card == "starfall_serpent" and mine.burned
    assert theirs.card is None and theirs.name is None and theirs.burned
    assert "starfall_serpent" in secrets(table.state, 1)
    assert "Starfall Serpent" not in msgspec.json.encode(table.view(1)).decode()


def test_eh19_a_burned_card_lies_face_down_and_every_view_names_it():
    """Rules version 2: the card was Burned face up and the log said which ('The Starfall Serpent
    is Burned, face down'), so which card lies face down is no secret; the view marks it
    Burned and names it to all, as an Archmage aimed at it must (EH19)."""
    table = Table()
    table.place(0, "ember_mote")
    table.place(1, "flare_salamander")  # Flashfire: Burn a creature of VP 6 or less
    since = len(table.history)
    table.send(1, UseAbility(card="flare_salamander", target="ember_mote"))
    assert "The Ember Mote is Burned, face down." in table.lines(None, since)
    for seat in (0, 1, None):
        seen = table.view(seat).seats[0].cards[0]
        assert (seen.card, seen.name, seen.burned) == ("ember_mote", "Ember Mote", True)
    assert "ember_mote" not in secrets(table.state, 1)


def test_e11_the_view_never_shows_the_deck_only_its_size():
    table = Table()
    text = msgspec.json.encode(table.view(None)).decode()
    assert table.view(None).deck_size == len(table.board.deck)
    assert not any(f'"{card}"' in text for card in table.board.deck)


def test_e11_a_draw_is_public_as_a_count_and_private_as_the_cards():
    table = Table()
    table.place(1, "lantern_moth")
    since = len(table.history)
    table.send(1, UseAbility(card="lantern_moth"))
    public = table.lines(None, since)
    assert "Bryn draws 2 cards." in public
    assert any(line.startswith("You draw ") for line in table.private_lines(1))
    assert not any(line.startswith("You draw ") for line in table.lines(0, since))


def test_e11_a_conjure_shows_the_cards_paid_to_everyone():
    table = Table()
    table.give(0, "fire-4", "water-4")
    since = len(table.history)
    table.send(0, Conjure(card="ember_mote", paid=("fire-4", "water-4")))
    assert "Ash conjures the Ember Mote (1 VP), showing Fire 4 and Water 4." in table.lines(
        None, since)


def test_e11_tutors_are_revealed_at_the_end():
    table = Table(turn_cap=10, tutors=["artificer", "dragon_sage"])
    from domain.ember.commands import EndTurn, Pass

    for _ in range(10):
        table.send(0, EndTurn())
        table.send(1, EndTurn())
    table.send(0, Pass())
    table.send(1, Pass())
    assert table.view(None).seats[1].tutor == "dragon_sage"
    assert "Bryn reveals the Dragon Sage: 0 VP (hand worth" in table.lines(None)[-2]


@sampling.MARK
@pytest.mark.parametrize("sample", sampling.samples(6, 200))
def test_random_matches_conserve_the_55_wizard_cards_and_always_end(sample):
    index = sampling.index(sample)
    chooser, rng = random.Random(index), Rng(f"views {index}".encode())
    seats = 2 + index % 4
    state = None
    for event in GAME.setup(Options(turn_cap=10, call_at=20), ("A", "B", "C", "D", "E")[:seats],
                            rng):
        state = GAME.evolve(state, event)
    for _ in range(5000):
        if GAME.outcome(state) is not None:
            break
        seat = chooser.choice(GAME.acting(state))
        for event in GAME.decide(state, seat, chooser.choice(GAME.legal_actions(state, seat)),
                                 rng):
            state = GAME.evolve(state, event)
            places = card_locations(state)
            assert all(len(where) == 1 for where in places.values()), places
    assert GAME.outcome(state) is not None
    assert sorted(card_locations(state)) == sorted(WIZARD_CARDS)


def test_eh8_the_three_archmages_are_alike_and_the_word_is_never_a_secret():
    table = Table()
    table.give(0, "archmage-2", "fire-9")
    assert table.view(0).hand == ("archmage", "fire-9")
    hidden = secrets(table.state, 1)
    assert "fire-9" in hidden and "Fire 9" in hidden
    assert not {"archmage", "archmage-2", "an Archmage"} & hidden
