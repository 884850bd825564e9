"""Visibility (W16): what each seat, a spectator and the log may see."""

from __future__ import annotations

import msgspec
from wick_ember_scripts import last_flame_on_the_last_card
from wick_ember_support import Table, stacked

from domain.wick_ember import GAME
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.observer import SeatView, WickEmberView

WARDEN_ROUND = stacked("moth_duchess", ("lamp_warden", "gale", "lensmaker"), ("veilkeeper",))


def fields(kind: type) -> list[str]:
    """The field names of a Struct type."""
    return [field.name for field in msgspec.structs.fields(kind)]


def test_w16_the_view_has_exactly_these_fields_and_a_seat_entry_holds_no_hand():
    """W16: the surface a viewer gets; the deck is only a size, other seats only a card count."""
    assert fields(WickEmberView) == [
        "you",
        "round",
        "ember_target",
        "deck",
        "seats",
        "turn",
        "hand",
        "notes",
        "ash",
        "face_up",
        "set_aside",
        "set_aside_dealt",
        "deck_size",
        "counter",
        "result",
        "legal_actions",
    ]
    assert fields(SeatView) == [
        "seat",
        "name",
        "you",
        "lit",
        "veiled",
        "conceded",
        "embers",
        "cards_in_hand",
        "lantern_log",
    ]


def test_w16_given_a_seat_then_it_sees_its_own_hand_and_nobody_elses():
    """W16: your own hidden card(s) only; names come from the table; your seat is marked."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    assert table.view(0).hand == ("lamp_warden", "veilkeeper")
    assert table.view(1).hand == ("gale",) and table.view(2).hand == ("lensmaker",)
    view = table.view(1)
    assert [(s.name, s.you) for s in view.seats] == [
        ("Ash", False),
        ("Bryn", True),
        ("Cato", False),
    ]
    assert [s.cards_in_hand for s in view.seats] == [2, 1, 1]


def test_w16_given_a_spectator_then_it_sees_no_hand_no_note_and_no_legal_action():
    """W16: the gallery sees the public table only."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    table.play(0, "lamp_warden", target=1, guess="lensmaker")
    view = table.view(None)
    assert view.you is None and view.hand == () and view.notes == () and view.legal_actions == ()
    assert not any(s.you for s in view.seats)


def test_w16_given_the_seat_to_act_then_its_view_lists_its_legal_actions_and_others_get_none():
    """The view carries legal_actions for that seat; they match legal_actions exactly."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    assert list(table.view(0).legal_actions) == table.legal(0)
    assert PlayCard(card="veilkeeper") in table.view(0).legal_actions
    assert table.view(1).legal_actions == () and table.view(2).legal_actions == ()


def test_w16_given_a_round_in_play_then_the_face_down_set_aside_is_hidden_until_the_round_ends():
    """W16: the face-down set-aside stays hidden until the round's end turns it up."""
    table = last_flame_on_the_last_card(ember_target=1)
    during = table.history[-4][0]  # a state from the middle of the last turn
    assert GAME.observe(during, 0).set_aside is None
    assert table.view(None).set_aside == "gale" and not table.view(None).set_aside_dealt


def test_w16_the_card_counter_counts_the_deck_minus_the_ash_the_face_up_cards_and_the_logs():
    """W16: the card counter, public to all; hands and the deck are not in it."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    assert table.view(None).counter == {
        "lamp_warden": 4,
        "lensmaker": 3,
        "gale": 2,
        "veilkeeper": 2,
        "sootsweep": 2,
        "ferrywoman": 1,
        "moth_duchess": 1,
        "hearthflame": 1,
    }
    table.play(0, "lamp_warden", target=1, guess="gale")
    counter = table.view(2).counter
    assert (counter["lamp_warden"], counter["gale"], counter["lensmaker"]) == (3, 1, 3)


def test_w16_given_a_turn_then_the_draw_is_public_and_the_card_drawn_is_private():
    """W16: the size of the deck is public; the card drawn is the drawer's alone."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    assert "Ash draws a card (11 left)." in table.lines(None)
    assert "You drew the Veilkeeper." in table.lines(0)
    assert "You drew the Veilkeeper." not in table.lines(1) + table.lines(None)
    assert "You were dealt the Gale." in table.private_lines(1)
    assert table.view(None).deck_size == 11


def test_w16_given_the_log_then_the_opening_lines_read_in_the_rulebooks_terms():
    """The log's first lines: the table, the round, the draw."""
    table = Table(3, rounds=(WARDEN_ROUND,))
    assert table.lines(None)[:3] == [
        "Ash, Bryn and Cato light their lanterns; the first to 5 embers wins the night (standard deck).",
        "Round 1: Ash opens; one card is set aside face down.",
        "Ash draws a card (11 left).",
    ]
