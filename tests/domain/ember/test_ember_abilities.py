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
    table.place(1, "ash_wyrmling")  # burns VP 4 or less (version 1: 2)
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


def test_eh7_version_1_an_archmage_regenerates_only_a_creature_of_your_own():
    table = Table(version="1")
    table.give(1, "archmage-1")
    table.place(0, "ember_mote", burned=True)
    table.place(1, "dew_sprite", burned=True)
    plays = [a for a in table.legal(1) if isinstance(a, PlayArchmage)]
    assert PlayArchmage(effect="regenerate", target="dew_sprite") in plays
    assert PlayArchmage(effect="regenerate", target="ember_mote") not in plays
    assert "cannot regenerate" in table.refuses(
        1, PlayArchmage(effect="regenerate", target="ember_mote"))


def test_eh19_an_archmage_regenerates_any_burned_creature_in_play_an_opponents_too():
    """Rules version 2, the rulebook's Archmage: 'Burn or Regenerate any one creature in play'
    (EH7 is gone). Regenerating an opponent's Burned Spectral puts its weight back on them."""
    table = Table(seats=3)
    table.give(1, "archmage-1")
    table.place(0, "ember_mote", burned=True)
    table.place(2, "hollow_shade", burned=True)  # a Spectral on Cato
    table.place(1, "dew_sprite", burned=True)
    plays = [a for a in table.legal(1) if isinstance(a, PlayArchmage)]
    for card in ("ember_mote", "hollow_shade", "dew_sprite"):
        assert PlayArchmage(effect="regenerate", target=card) in plays
    table.send(1, PlayArchmage(effect="regenerate", target="hollow_shade"))
    assert not table.held("hollow_shade").burned and table.held("hollow_shade").turned == "ready"
    assert table.lines(None)[-2] == "Bryn plays an Archmage to regenerate on Cato's Burned Hollow Shade."


def test_eh3_eh19_a_ward_keeps_an_opponents_archmage_from_regenerating_your_burned_card():
    table = Table()
    table.give(1, "archmage-1")
    table.place(0, "magma_tortoise")  # Basalt Shell: ward
    table.place(0, "ember_mote", burned=True)
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


def test_eh5_scavenge_takes_the_top_numbered_cards_and_leaves_archmages_in_the_charred_pile():
    table = Table()
    table.place(1, "dew_sprite")  # Glean: scavenge 1
    table.char("fire-3", "archmage-2")  # the Archmage on top
    table.send(1, UseAbility(card="dew_sprite"))
    assert table.hand(1)[-1] == "fire-3" and table.board.charred == ("archmage-2",)


def test_eh14_burn_aims_at_an_opponents_face_up_creature_of_at_most_its_vp_a_spectral_by_its_size():
    table = Table()
    table.place(1, "flare_salamander")  # Flashfire: Burn VP 6 or less (version 2)
    table.place(0, "wisp_of_regret")  # a Spectral of VP -3, on Ash: burnable (3 <= 6)
    table.place(0, "lantern_moth")  # VP 4
    table.place(0, "frost_lynx")  # VP 7: too big
    table.place(0, "ember_mote", burned=True)  # face down: not a target
    table.place(1, "dew_sprite")  # its own: never a target
    table.place(0, "tidecallers_lantern")  # an artifact: never burned
    aims = {a.target for a in table.legal(1)
            if isinstance(a, UseAbility) and a.card == "flare_salamander"}
    assert aims == {"wisp_of_regret", "lantern_moth"}


def test_eh14_regress_aims_at_any_opponents_card_not_yet_exhausted_artifacts_too():
    table = Table()
    table.place(1, "gust_finch")  # Buffet: regress 1
    table.place(0, "tidecallers_lantern")
    table.place(0, "ember_mote", turned="recovering")
    table.place(0, "dew_sprite", turned="exhausted")
    aims = {a.target for a in table.legal(1) if isinstance(a, UseAbility)
            and a.card == "gust_finch"}
    assert aims == {"tidecallers_lantern", "ember_mote"}


def test_eh14_steal_and_discard_aim_at_opponents_with_cards_in_hand_and_nothing_else_is_offered():
    table = Table(seats=3)
    table.place(1, "bramble_boar")  # Rummage: steal 1
    table.place(1, "root_colossus")  # Regrowth: regenerate, with nothing Burned of Bryn's
    table.give(2)  # Cato holds nothing
    aims = [a for a in table.legal(1) if isinstance(a, UseAbility)]
    assert aims == [UseAbility(card="bramble_boar", seat=0)]


def test_eh17_only_creatures_regenerate_a_dragon_part_among_them_no_artifact_does():
    """The rulebook: 'Only an Archmage or specific creature ability can Regenerate a Burned
    card'. A dragon part is a creature (it is Burned and Regenerated as one), so the Head of
    Gravaur's Living Stone stays; version 2's Urn of Embers drains for cards instead."""
    from domain.ember.cards import card_set

    regenerating = {card.id for card in card_set("2").cards.values()
                    for ability in card.abilities if ability.effect == "regenerate"}
    assert regenerating == {"root_colossus", "phoenix_of_cinders", "gravaur_head"}
    assert card_set("1").cards["urn_of_embers"].ability("drain").effect == "regenerate"
    table = Table()
    table.place(1, "gravaur_head")
    table.place(1, "ember_mote", burned=True)
    table.send(1, UseAbility(card="gravaur_head", target="ember_mote"))
    assert not table.held("ember_mote").burned


def test_eh11_the_legendary_is_used_by_exhausting_a_ready_part_with_all_three_in_front():
    table = Table()
    table.place(1, "thalassa_tail", turned="exhausted")
    table.place(1, "thalassa_body")
    table.place(1, "thalassa_head", turned="recovering")
    legendary = [a for a in table.legal(1) if isinstance(a, UseAbility)
                 and a.power == "legendary"]
    assert legendary == [UseAbility(card="thalassa_body", power="legendary")]  # High Tide
    table.send(1, legendary[0])
    assert table.held("thalassa_body").turned == "exhausted"
    assert not [a for a in table.legal(1) if isinstance(a, UseAbility)]
