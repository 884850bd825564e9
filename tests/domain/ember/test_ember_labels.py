"""Labels (what a button says) and the time-out default (EH9)."""

from __future__ import annotations

from domain.core.decider import Concede
from domain.ember import GAME
from domain.ember.commands import Conjure, Draw, EndTurn, Pass, PlayArchmage, UseAbility
from tests.domain.ember.ember_support import Table


def test_every_offered_command_has_a_label_naming_only_what_the_seat_may_see():
    table = Table(seats=3)
    table.place(1, "thorn_hare")
    table.place(0, "gust_finch")
    table.give(1, "archmage-1", "fire-2")
    labels = {GAME.label(table.state, 1, a) for a in table.legal(1)}
    assert "Thorn Hare: Tangle on Ash's Gust Finch" in labels
    assert "Play an Archmage: burn Ash's Gust Finch" in labels
    assert GAME.label(table.state, 0, Draw(recycle="earth-11")) == "Recycle Earth 11 and draw"
    conjure = Conjure(card="wisp_of_regret", paid=("air-1", "archmage", "fire-3"), onto=2)
    assert GAME.label(table.state, 0, conjure) == (
        "Conjure Wisp of Regret onto Cato with Air 1, an Archmage and Fire 3")
    assert GAME.label(table.state, 0, EndTurn(discard=("fire-1",), call=True)) == (
        "End your turn, discarding Fire 1 and make the Call")
    assert GAME.label(table.state, 0, Pass()) == "Pass"
    assert GAME.label(table.state, 0, Concede()) == "Concede the match"
    assert GAME.label(table.state, 1, PlayArchmage(effect="advance", target="thorn_hare")) == (
        "Play an Archmage: advance Bryn's Thorn Hare")
    assert GAME.label(table.state, 1, UseAbility(card="thorn_hare", target="gust_finch"))


def test_eh9_a_seat_out_of_time_ends_its_turn_discarding_its_lowest_cards_to_hand_size():
    table = Table()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    table.place(0, "lantern_moth")
    table.send(0, UseAbility(card="lantern_moth"))
    played = GAME.time_out_action(table.state, 0)
    assert isinstance(played, EndTurn) and not played.call
    assert played.discard == tuple(sorted(table.view(0).hand)[:2])
    assert GAME.time_out_action(table.state, 1) is None


def test_eh9_in_the_last_round_a_seat_out_of_time_passes():
    table = Table(turn_cap=10)
    for _ in range(10):
        table.send(0, EndTurn())
        table.send(1, EndTurn())
    assert GAME.time_out_action(table.state, 0) == Pass()
