"""A turn (E5, E7) and conjuring (E2, E3, E6): draw or recycle or refresh, one conjure and its
refill, discard to hand size; orientation; dragons' discount chain; Spectrals; artifacts."""

from __future__ import annotations

import pytest

from domain.core.errors import NotYourTurn, WrongPhase
from domain.ember.board import cost_for, hand_size, vp
from domain.ember.cards import CARDS
from domain.ember.commands import Conjure, Draw, EndTurn, PlayArchmage, Refresh, UseAbility
from domain.ember.events import CardsDrawn, Conjured, TurnBegan
from tests.domain.ember.ember_support import Table


def test_e7_below_hand_size_a_draw_takes_one_card_without_recycling():
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4")
    assert table.legal(0)[0] == Draw()
    table.send(0, Draw())
    assert len(table.hand(0)) == 5
    assert "recycle a card" not in table.refuses(0, Draw(), WrongPhase)


def test_e7_at_hand_size_a_draw_must_recycle_one_card_onto_the_charred_pile():
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    assert "recycle a card" in table.refuses(0, Draw())
    assert Draw() not in table.legal(0)
    table.send(0, Draw(recycle="fire-5"))
    assert table.board.charred == ("fire-5",) and len(table.hand(0)) == 5


def test_e7_a_refresh_discards_the_hand_draws_as_many_and_forbids_a_conjure():
    table = Table()
    table.next_round()
    table.give(0, "fire-1", "fire-2", "air-7")
    top = table.board.deck[:3]
    table.send(0, Refresh())
    assert table.hand(0) == top and table.board.charred == ("fire-1", "fire-2", "air-7")
    assert not any(isinstance(a, Conjure) for a in table.legal(0))
    assert "already conjured or refreshed" in table.refuses(
        0, Conjure(card="ember_mote", paid=("fire-1", "fire-2")), WrongPhase)


def test_e3_e7_a_conjure_pays_the_cost_claims_the_creature_ready_and_refills_the_hand():
    table = Table()
    table.give(0, "fire-4", "water-4", "air-9", "earth-2", "earth-11")
    command = Conjure(card="ember_mote", paid=("fire-4", "water-4"))
    assert command in table.legal(0)
    top = table.board.deck[:2]
    table.send(0, command)
    assert table.held("ember_mote").turned == "ready"
    assert "ember_mote" not in table.board.pool
    assert table.hand(0) == ("air-9", "earth-2", "earth-11", *top)
    assert table.board.charred == ("fire-4", "water-4")
    assert vp(table.board, 0) == 1


def test_e3_an_archmage_stands_for_any_card_in_a_cost():
    table = Table()
    table.give(0, "fire-4", "archmage-2", "air-9")
    table.send(0, Conjure(card="ember_mote", paid=("archmage", "fire-4")))
    assert "archmage-2" in table.board.charred


def test_e3_cards_that_do_not_make_the_cost_are_refused_naming_it():
    table = Table()
    table.give(0, "fire-4", "water-5", "air-9")
    message = table.refuses(0, Conjure(card="ember_mote", paid=("fire-4", "water-5")))
    assert "do not pay the Ember Mote's cost: pair" in message
    assert "not in your hand" in table.refuses(0, Conjure(card="ember_mote",
                                                          paid=("fire-1", "fire-4")))


def test_e7_only_one_conjure_a_turn_and_then_the_turn_can_only_end():
    table = Table()
    table.give(0, "fire-4", "water-4", "air-4", "earth-4", "air-9")
    table.stack("fire-1", "fire-2")
    table.send(0, Conjure(card="ember_mote", paid=("fire-4", "water-4")))
    assert {type(a) for a in table.legal(0)} <= {EndTurn, UseAbility}
    assert "already conjured" in table.refuses(
        0, Conjure(card="gust_finch", paid=("air-4", "earth-4")), WrongPhase)


def test_e7_the_turn_ends_only_at_hand_size_discarding_the_excess():
    table = Table()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    table.place(0, "lantern_moth")
    table.send(0, UseAbility(card="lantern_moth"))  # draws 2: seven in hand
    assert "discard exactly 2" in table.refuses(0, EndTurn(discard=("fire-1",)))
    table.send(0, EndTurn(discard=("fire-1", "fire-2")))
    assert len(table.hand(0)) == 5 and table.board.turn == 1


def test_e7_turn_steps_belong_to_the_seat_whose_turn_it_is():
    table = Table()
    assert "Ash's turn" in table.refuses(1, Draw(recycle=table.hand(1)[0]), NotYourTurn)


def test_e5_at_the_start_of_its_owners_turn_each_card_advances_one_step():
    table = Table()
    table.place(1, "ember_mote", turned="exhausted")
    table.place(1, "dew_sprite", turned="recovering")
    table.place(1, "gust_finch", turned="exhausted", burned=True)
    table.send(0, EndTurn())
    assert table.last(TurnBegan).seat == 1
    assert table.held("ember_mote").turned == "recovering"
    assert table.held("dew_sprite").turned == "ready"
    assert table.held("gust_finch").turned == "exhausted"  # Burned: face down, it stays


def test_e5_a_burned_creature_scores_nothing_and_has_no_ability():
    table = Table()
    table.place(1, "lantern_moth", burned=True)
    assert vp(table.board, 1) == 0
    assert not any(isinstance(a, UseAbility) for a in table.legal(1))


def test_e2_a_spectral_goes_onto_an_opponent_who_loses_its_vp_while_the_conjurer_gains_it():
    table = Table(seats=3)
    table.give(0, "air-1", "fire-2", "water-3", "earth-9")
    assert not any(a.card == "wisp_of_regret" and a.onto in (None, 0)
                   for a in table.legal(0) if isinstance(a, Conjure))
    table.send(0, Conjure(card="wisp_of_regret", paid=("air-1", "fire-2", "water-3"), onto=2))
    assert (vp(table.board, 0), vp(table.board, 2)) == (3, -3)
    assert table.held("wisp_of_regret") in table.board.seats[2].cards


def test_e2_a_spectrals_host_may_conjure_it_on_and_the_tokens_move_to_the_new_conjurer():
    table = Table(seats=3)
    table.give(0, "air-1", "fire-2", "water-3")
    table.send(0, Conjure(card="wisp_of_regret", paid=("air-1", "fire-2", "water-3"), onto=1))
    table.send(0, EndTurn())
    table.give(1, "water-6", "earth-7", "fire-8")
    table.send(1, Conjure(card="wisp_of_regret", paid=("earth-7", "fire-8", "water-6"), onto=2))
    assert [vp(table.board, s) for s in range(3)] == [0, 3, -3]
    assert table.board.credit == (("wisp_of_regret", 1),)


def test_e2_the_dragon_piles_offer_the_tail_then_the_body_then_the_head():
    table = Table()
    piles = table.board.piles
    from domain.ember.board import on_offer

    offered = set(on_offer(table.board))
    assert {"pyrrhon_tail"} <= offered and not {"pyrrhon_body", "pyrrhon_head"} & offered
    table.place(1, "pyrrhon_tail")
    assert "pyrrhon_body" in on_offer(table.board) and len(table.board.piles) == len(piles) - 1


def test_e2_the_discount_chain_a_part_costs_what_the_lowest_part_of_the_chain_costs():
    table = Table()
    tail, body, head = (CARDS[f"thalassa_{p}"] for p in ("tail", "body", "head"))
    assert cost_for(table.board, 0, body.id) == body.cost  # no preceding part: full cost
    table.place(0, tail.id)
    assert cost_for(table.board, 0, body.id) == tail.cost
    table.place(0, body.id)
    assert cost_for(table.board, 0, head.id) == tail.cost
    assert cost_for(table.board, 1, head.id) == head.cost
    other = Table()
    other.place(1, body.id)
    assert cost_for(other.board, 1, head.id) == body.cost  # the chain begins at the Body


def test_e2_a_dragon_part_conjured_at_the_discount():
    table = Table()
    table.place(0, "thalassa_tail")
    table.give(0, "water-1", "water-5", "water-8", "archmage-1")
    command = Conjure(card="thalassa_body", paid=("archmage", "water-1", "water-5", "water-8"))
    assert command in table.legal(0)
    table.send(0, command)
    assert table.last(Conjured).card == "thalassa_body"


def test_e6_an_artifact_is_claimed_by_conjuring_it_scores_nothing_and_works_while_ready():
    table = Table(artifacts=["tidecallers_lantern", "cinder_crown", "urn_of_embers"])
    table.give(0, "air-1", "earth-2", "fire-3", "water-4")
    table.send(0, Conjure(card="tidecallers_lantern",
                          paid=("air-1", "earth-2", "fire-3", "water-4")))
    assert "tidecallers_lantern" not in table.board.artifacts
    assert vp(table.board, 0) == 0 and table.last(CardsDrawn).cards
    assert hand_size(table.board, 0) == 6


def test_e6_a_drained_artifact_is_burned_for_good_no_archmage_regenerates_it():
    table = Table()
    table.place(1, "tidecallers_lantern")
    table.give(1, "archmage-1")
    table.send(1, UseAbility(card="tidecallers_lantern", power="drain"))
    lantern = table.held("tidecallers_lantern")
    assert lantern.burned and lantern.drained
    assert all(getattr(a, "target", None) != "tidecallers_lantern" for a in table.legal(1))
    assert all(getattr(a, "target", None) != "tidecallers_lantern" for a in table.legal(0))


@pytest.mark.parametrize("seat", [0, 1])
def test_e7_a_seat_may_end_the_turn_without_drawing_or_conjuring(seat):
    table = Table()
    if seat == 1:
        table.send(0, EndTurn())
    table.send(seat, EndTurn())
    assert table.board.turn == 1 - seat


def test_eh15_version_1_the_first_player_has_no_draw_step_on_the_first_turn_of_all():
    table = Table(seats=2, version="1")
    assert not any(isinstance(a, Draw | Refresh) for a in table.legal(0))
    assert "first turn of all (EH15)" in table.refuses(0, Draw(recycle=table.hand(0)[0]),
                                                     WrongPhase)
    table.send(0, EndTurn())
    assert Draw(recycle=sorted(table.view(1).hand)[0]) in table.legal(1)


def test_e7_every_turn_has_its_draw_step_the_first_players_first_turn_too():
    """Rules version 2: EH15 is gone; the rulebook's turn, its draw step included (E7)."""
    table = Table(seats=2)
    assert Draw(recycle=sorted(table.view(0).hand)[0]) in table.legal(0)
    assert Refresh() in table.legal(0)
    table.send(0, Draw(recycle=sorted(table.view(0).hand)[0]))
    assert len(table.hand(0)) == 5 and len(table.board.charred) == 1


def test_eh15_as_the_hosts_option_the_first_player_skips_its_first_draw_step():
    """The EH15 variant is the option first_player_skips_draw, off by default (rules version 2)."""
    table = Table(seats=2, first_player_skips_draw=True)
    assert not any(isinstance(a, Draw | Refresh) for a in table.legal(0))
    assert "first turn of all (EH15)" in table.refuses(0, Draw(recycle=table.hand(0)[0]),
                                                     WrongPhase)
    table.send(0, EndTurn())
    assert Draw(recycle=sorted(table.view(1).hand)[0]) in table.legal(1)
    table.send(1, EndTurn())
    assert Draw(recycle=sorted(table.view(0).hand)[0]) in table.legal(0)


def test_eh2_a_hand_size_is_five_plus_ready_hand_size_abilities_never_below_two():
    table = Table(seats=2)
    table.place(0, "owl_of_dusk")  # +1
    assert hand_size(table.board, 0) == 6
    for spectral in ("dread_revenant", "grave_chill", "hollow_shade", "wisp_of_regret"):
        table.place(0, spectral)  # -2, -1, -1, -1
    assert hand_size(table.board, 0) == 2  # 6 - 5 = 1, never below two


def test_eh12_a_burned_spectral_costs_its_host_nothing_and_its_conjurers_tokens_stay():
    table = Table(seats=2)
    table.give(0, "air-1", "fire-2", "water-3")
    table.send(0, Conjure(card="wisp_of_regret", paid=("air-1", "fire-2", "water-3"), onto=1))
    assert (vp(table.board, 0), vp(table.board, 1)) == (3, -3)
    table.give(0, "archmage-1")
    table.send(0, PlayArchmage(effect="burn", target="wisp_of_regret"))
    assert (vp(table.board, 0), vp(table.board, 1)) == (3, 0)
    assert hand_size(table.board, 1) == 5  # its Nagging Doubt is face down too


def test_eh13_an_artifact_is_drained_only_while_ready():
    table = Table()
    table.place(1, "tidecallers_lantern", turned="recovering")
    assert not [a for a in table.legal(1) if isinstance(a, UseAbility)]
    assert "not Ready" in table.refuses(1, UseAbility(card="tidecallers_lantern", power="drain"))
