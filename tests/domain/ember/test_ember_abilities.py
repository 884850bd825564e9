"""Abilities at any time (E8), the Archmage, and the house rulings on abilities (EH3, EH5, EH6)."""

from __future__ import annotations

from domain.core.errors import NotYourTurn
from domain.ember import GAME
from domain.ember.commands import Draw, EndTurn, Pass, PlayArchmage, UseAbility
from domain.ember.events import AbilityUsed, CardTurned, CreatureBurned
from domain.ember.legal import may_act, to_act
from tests.domain.ember.ember_support import Table


def test_e8_a_seat_with_a_ready_ability_may_act_on_anothers_turn_and_only_the_turn_seat_owes():
    table = Table(seats=3)
    table.place(2, "ember_mote")
    assert to_act(table.state) == (0,)
    assert may_act(table.state) == (0, 2)
    assert GAME.acting(table.state) == (0, 2)
    assert table.legal(2) == [UseAbility(card="ember_mote")]
    assert table.legal(1) == []


def test_e8_abilities_apply_in_the_order_the_commands_arrive():
    """Bryn's Buffet exhausts Ash's Gust Finch first, so Ash's Buffet is no longer offered."""
    table = Table()
    table.place(0, "gust_finch")
    table.place(1, "thorn_hare")
    table.place(0, "ember_mote")
    table.send(1, UseAbility(card="thorn_hare", target="gust_finch"))
    assert table.held("gust_finch").turned == "recovering"
    assert UseAbility(card="gust_finch", target="thorn_hare") not in table.legal(0)
    message = table.refuses(0, UseAbility(card="gust_finch", target="thorn_hare"))
    assert "not Ready" in message


def test_e8_an_exhausted_card_cannot_be_used_again_until_ready():
    table = Table()
    table.place(1, "ember_mote")
    table.send(1, UseAbility(card="ember_mote"))
    assert "not Ready" in table.refuses(1, UseAbility(card="ember_mote"))


def test_e8_a_seat_cannot_use_a_card_it_does_not_hold():
    table = Table()
    table.place(0, "ember_mote")
    assert "no 'ember_mote' in play" in table.refuses(1, UseAbility(card="ember_mote"))


def test_e8_an_ability_aimed_at_something_it_cannot_act_on_is_refused():
    table = Table()
    table.place(1, "ash_wyrmling")  # burns VP 2 or less
    table.place(0, "starfall_serpent")
    assert "cannot be aimed" in table.refuses(
        1, UseAbility(card="ash_wyrmling", target="starfall_serpent"))


def test_e8_an_archmage_advances_one_of_your_creatures_to_ready():
    table = Table()
    table.give(1, "archmage-3", "fire-2")
    table.place(1, "ember_mote", turned="exhausted")
    table.send(1, PlayArchmage(effect="advance", target="ember_mote"))
    assert table.held("ember_mote").turned == "ready"
    assert table.board.charred == ("archmage-3",) and table.hand(1) == ("fire-2",)


def test_e8_an_archmage_burns_any_creature_in_play_even_off_turn():
    table = Table()
    table.give(1, "archmage-1")
    table.place(0, "starfall_serpent")
    table.send(1, PlayArchmage(effect="burn", target="starfall_serpent"))
    assert table.last(CreatureBurned).card == "starfall_serpent"


def test_eh7_an_archmage_regenerates_only_a_creature_of_your_own():
    table = Table()
    table.give(1, "archmage-1")
    table.place(0, "ember_mote", burned=True)
    table.place(1, "dew_sprite", burned=True)
    plays = [a for a in table.legal(1) if isinstance(a, PlayArchmage)]
    assert PlayArchmage(effect="regenerate", target="dew_sprite") in plays
    assert PlayArchmage(effect="regenerate", target="ember_mote") not in plays
    assert "cannot regenerate" in table.refuses(
        1, PlayArchmage(effect="regenerate", target="ember_mote"))


def test_eh3_a_ward_keeps_opponents_abilities_and_archmages_off_your_cards():
    table = Table()
    table.place(0, "magma_tortoise")  # Basalt Shell: ward
    table.place(0, "ember_mote")
    table.give(1, "archmage-1")
    assert not [a for a in table.legal(1) if getattr(a, "target", None) == "ember_mote"]


def test_eh6_a_card_used_since_its_owners_turn_began_is_advanced_by_abilities_to_recovering_only():
    """Two advancing cards cannot ready each other for ever."""
    table = Table()
    table.place(1, "sky_roc")  # advance 2
    table.place(1, "world_turtle")  # advance 3
    table.send(1, UseAbility(card="world_turtle"))
    table.send(1, UseAbility(card="sky_roc"))
    assert table.held("world_turtle").turned == "recovering"
    assert table.last(CardTurned).card == "world_turtle"


def test_e8_pass_is_only_for_the_last_round():
    table = Table()
    assert "last round" in table.refuses(0, Pass())


def test_eh4_a_conceded_seat_can_do_nothing_more_and_its_turn_passes_on():
    table = Table(seats=3)
    table.place(0, "ember_mote")
    table.concede(0)
    assert table.board.turn == 1
    assert table.legal(0) == []
    assert "conceded" in table.refuses(0, UseAbility(card="ember_mote"), NotYourTurn)


def test_eh4_when_all_but_one_concede_the_last_seat_in_wins():
    table = Table(seats=2)
    table.concede(1)
    assert GAME.outcome(table.state).winners == (0,)


def test_e8_an_offered_turn_step_from_another_seat_is_refused():
    table = Table()
    assert "Ash's turn" in table.refuses(1, EndTurn(), NotYourTurn)
    assert "Ash's turn" in table.refuses(1, Draw(recycle=table.hand(1)[0]), NotYourTurn)
    assert table.count(AbilityUsed) == 0
