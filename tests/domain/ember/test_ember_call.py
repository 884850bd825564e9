"""The Call (E9): the threshold, the final turns, the last round of abilities, the Tutors, the
tie-breaks and shared wins; and the turn cap (EH1)."""

from __future__ import annotations

from domain.ember import GAME
from domain.ember.board import tutor_bonus
from domain.ember.commands import EndTurn, Pass, UseAbility
from domain.ember.events import ClosingBegan, MatchEnded, TurnBegan
from domain.ember.legal import to_act
from tests.domain.ember.ember_support import Table


def rich(table: Table, seat: int) -> None:
    """Given: the seat has 36 VP in play, all of it Earth but the Starfall Serpent (Air)."""
    for card in ("starfall_serpent", "world_turtle"):
        table.place(seat, card, turned="exhausted")
    table.place(seat, "ironbark_ent", turned="exhausted")  # 13 + 13 + 10 = 36 VP


def test_e9_below_the_threshold_no_call_is_offered_or_accepted():
    table = Table(call_at=30)
    assert EndTurn(call=True) not in table.legal(0)
    assert "the Call needs 30" in table.refuses(0, EndTurn(call=True))


def test_e9_the_call_gives_every_other_seat_one_final_turn_then_the_last_round_from_the_caller():
    table = Table(seats=3, tutors=["artificer", "dragon_sage", "tutor_of_flame"])
    rich(table, 0)
    assert EndTurn(call=True) in table.legal(0)
    table.send(0, EndTurn(call=True))
    assert table.board.call.final == (1, 2)
    table.send(1, EndTurn())
    assert table.last(TurnBegan).seat == 2
    table.send(2, EndTurn())
    assert table.last(ClosingBegan).seat == 0
    assert to_act(table.state) == (0,)
    assert EndTurn() not in table.legal(0) and Pass() in table.legal(0)


def test_e9_the_last_round_goes_seat_by_seat_until_every_seat_passes_in_a_row():
    table = Table(seats=2, tutors=["artificer", "dragon_sage"])
    rich(table, 0)
    table.place(1, "ember_mote")
    table.send(0, EndTurn(call=True))
    table.send(1, EndTurn())  # its final turn: the Ember Mote stays Ready
    assert "Ash's go" in table.refuses(1, UseAbility(card="ember_mote"))
    table.send(0, Pass())
    table.send(1, UseAbility(card="ember_mote"))  # a use breaks the run of passes
    table.send(0, Pass())
    assert GAME.outcome(table.state) is None
    table.send(1, Pass())
    ended = table.last(MatchEnded)
    assert ended.winners == (0,) and ended.tutors == ("artificer", "dragon_sage")


def test_e6_no_drain_after_the_call():
    table = Table(seats=2)
    rich(table, 0)
    table.place(1, "urn_of_embers")
    table.send(0, EndTurn(call=True))
    assert not [a for a in table.legal(1) if getattr(a, "power", "") == "drain"]
    assert "no Drain once the Call" in table.refuses(
        1, UseAbility(card="urn_of_embers", power="drain"))


def test_e9_the_tutors_are_revealed_and_added_to_the_final_scores():
    table = Table(seats=2, tutors=["tutor_of_stone", "tutor_of_flame"])
    rich(table, 0)  # World Turtle and Ironbark Ent are Earth: +4
    table.send(0, EndTurn(call=True))
    table.send(1, EndTurn())
    table.send(0, Pass())
    table.send(1, Pass())
    assert table.last(MatchEnded).scores == (40, 0)


def test_e9_equal_scores_and_equal_hands_share_the_win():
    table = Table(seats=2, tutors=["dragon_sage", "tutor_of_the_gale"])  # both add nothing here
    rich(table, 0)
    for card in ("abyssal_kraken", "basilisk_queen", "obsidian_golem", "ember_mote",
                 "pebble_imp", "moss_vole"):
        table.place(1, card, turned="exhausted")  # 12 + 12 + 9 + 1 + 2 + 1 = 37
    table.place(1, "hollow_shade", turned="exhausted")  # -7: 30 VP
    table.place(0, "wisp_of_regret", turned="exhausted")  # 36 - 3 = 33
    table.place(1, "tide_otter", turned="exhausted")  # 33
    table.give(0, "fire-4")
    table.give(1, "water-4")
    table.send(0, EndTurn(call=True))
    table.send(1, EndTurn())
    table.send(0, Pass())
    table.send(1, Pass())
    ended = table.last(MatchEnded)
    assert ended.scores == (33, 33) and ended.sums == (4, 4)
    assert ended.winners == (0, 1)
    assert GAME.outcome(table.state).placements == (1, 1)


def test_e9_with_equal_scores_the_higher_hand_wins():
    """An Archmage counts five: Archmage and Fire 1 (6) beat Water 5 (5)."""
    table = Table(seats=2, tutors=["artificer", "dragon_sage"], turn_cap=10)
    for seat in (0, 1):
        table.place(seat, ("ember_mote", "dew_sprite")[seat])
    table.give(0, "archmage-2", "fire-1")
    table.give(1, "water-5")
    for _ in range(10):
        table.send(0, EndTurn())
        table.send(1, EndTurn())
    assert table.last(ClosingBegan).capped
    table.send(0, Pass())
    table.send(1, Pass())
    ended = table.last(MatchEnded)
    assert ended.scores == (1, 1) and ended.sums == (6, 5) and ended.winners == (0,)


def test_eh1_at_the_turn_cap_the_last_round_begins_without_a_call_so_every_game_ends():
    table = Table(seats=3, turn_cap=10)
    for _ in range(10):
        for seat in range(3):
            table.send(seat, EndTurn())
    closing = table.last(ClosingBegan)
    assert closing.capped and closing.seat == 0 and table.board.call.caller is None
    for seat in range(3):
        table.send(seat, Pass())
    assert GAME.outcome(table.state) is not None


def test_eh18_a_tutor_counts_the_creatures_in_front_of_you_dragon_parts_and_hosted_spectrals():
    """The rulebook: a Tutor 'modifies its owning player's final score with the creatures they
    control'. Every card in front of a player is one it controls, a Spectral conjured onto it
    included, and a dragon part is a creature (EH17)."""
    table = Table(tutors=["tutor_of_tides", "keeper_of_small_things"])
    table.place(0, "thalassa_tail")  # a water dragon part
    table.place(0, "grave_chill")  # a water Spectral lying in front of Ash
    table.place(0, "reed_heron")  # a water creature
    table.place(0, "tidecallers_lantern")  # an artifact: no element, never a creature
    assert tutor_bonus(table.board, 0) == 3 * 2
    table.place(1, "pyrrhon_tail")  # VP 4: a lesser creature
    table.place(1, "ember_mote")
    assert tutor_bonus(table.board, 1) == 2
    first = Table(tutors=["tutor_of_tides", "keeper_of_small_things"], version="1")
    first.place(1, "pyrrhon_tail")
    first.place(1, "ember_mote")
    assert tutor_bonus(first.board, 1) == 1  # version 1's Keeper counted the Pool's only


def test_eh18_the_artificer_scores_creatures_with_an_ongoing_ability_not_artifacts():
    """Rules version 2: version 1's Artificer scored +4 per artifact, no creature at all."""
    for version, bonus in (("1", 4), ("2", 3 * 2)):
        table = Table(tutors=["artificer", "dragon_sage"], version=version)
        table.place(0, "cinder_crown")  # an artifact
        table.place(0, "owl_of_dusk")  # Night Wisdom: Ongoing
        table.place(0, "gravaur_body")  # Bedrock: Ongoing, a dragon part
        table.place(0, "ember_mote")  # Spark: Exhaust
        assert tutor_bonus(table.board, 0) == bonus, version
