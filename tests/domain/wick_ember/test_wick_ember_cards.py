"""The cards from the Lensmaker up: W7 to W12 and the Hearthflame, each in a scripted round."""

from __future__ import annotations

import pytest
from wick_ember_support import Table, stacked

from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import (
    CardsPassed,
    FlamesCompared,
    FlameSnuffed,
    ReplacementDrawn,
    RoundWon,
)
from domain.wick_ember.observer import NoteView

TWO_WARDENS_UP = ("lamp_warden", "lamp_warden")
SAW_BRYNS_GALE = NoteView(seat=1, card="gale", text="You saw Bryn's card: Gale")


def looking(*draws: str) -> Table:
    """Three seats: Ash a Lensmaker, Bryn a Gale, Cato a Sootsweep; Ash looks at Bryn's Gale."""
    table = Table(3, rounds=(stacked("veilkeeper", ("lensmaker", "gale", "sootsweep"), draws),))
    table.play(0, "lensmaker", target=1)
    return table


def test_w7_given_a_lensmaker_look_then_only_the_looker_sees_the_card():
    """W7, W16: the look is public; the rank is a note on the looker's screen only."""
    table = looking("lamp_warden", "moth_duchess")
    assert table.view(0).notes == (SAW_BRYNS_GALE,)
    assert table.view(1).notes == () and table.view(2).notes == () and table.view(None).notes == ()
    assert "Ash looked at Bryn's hidden card." in table.lines()
    assert not any("Gale" in line for line in table.lines(None)[-4:])
    assert table.private_lines(0)[-1] == "You saw Bryn's card: Gale"
    assert "You saw" not in " ".join(table.private_lines(1) + table.private_lines(2))


def test_w7_given_a_note_when_the_seen_card_is_played_then_the_note_is_cleared():
    """W7: the note lasts while the card stays, and goes when that card leaves the hand."""
    table = looking("lamp_warden", "hearthflame")
    assert table.legal(1) == [PlayCard(card="gale", target=0), PlayCard(card="gale", target=2)]
    assert table.view(0).notes == (SAW_BRYNS_GALE,)
    table.play(1, "gale", target=2)
    assert table.view(0).notes == ()


def test_w7_given_a_note_when_a_sootsweep_replaces_the_card_with_the_same_rank_then_it_is_not_restored():
    """W7: a discarded card clears the note; a new card of the same rank does not bring it back."""
    table = looking("lamp_warden", "moth_duchess", "veilkeeper", "gale")
    table.play(1, "moth_duchess")
    assert table.view(0).notes == (SAW_BRYNS_GALE,)
    table.play(2, "sootsweep", target=1)
    assert table.hand(1) == ["gale"] and table.view(0).notes == ()


def test_w7_given_a_note_when_the_card_is_passed_then_the_note_is_cleared():
    """W7: a Ferrywoman's pass takes the card out of the hand, so the note goes."""
    table = looking("lamp_warden", "moth_duchess", "ferrywoman")
    table.play(1, "moth_duchess")
    table.play(2, "ferrywoman")
    assert table.hand(2) == ["gale"] and table.view(0).notes == ()


def test_w7_given_a_note_when_the_card_is_revealed_by_a_snuff_then_the_note_is_cleared():
    """W7: a snuff turns the card face up into the ash; the note goes."""
    table = looking("lamp_warden", "moth_duchess", "lamp_warden")
    table.play(1, "moth_duchess")
    table.play(2, "lamp_warden", target=1, guess="gale")
    assert table.view(0).notes == () and table.view(None).ash == ("gale",)


def test_w7_given_a_note_when_the_round_ends_then_the_note_is_cleared():
    """W7: notes end with the round, even while the card is still in the hand."""
    deal = stacked(
        "gale", ("lensmaker", "veilkeeper"), ("moth_duchess", "lamp_warden"), TWO_WARDENS_UP
    )
    table = Table(2, rounds=(deal,))
    table.play(0, "lensmaker", target=1)
    assert len(table.view(0).notes) == 1
    table.play(1, "lamp_warden", target=0, guess="moth_duchess")
    assert table.after(RoundWon).round.notes == () and table.view(0).notes == ()


def test_h10_given_a_second_look_at_the_same_card_then_the_looker_keeps_one_note():
    """H10: looking twice at the same physical card leaves a single note."""
    table = looking("lamp_warden", "moth_duchess", "veilkeeper", "lensmaker")
    table.play(1, "moth_duchess")
    table.play(2, "veilkeeper")
    table.play(0, "lensmaker", target=1)
    assert table.view(0).notes == (SAW_BRYNS_GALE,)
    assert table.private_lines(0).count("You saw Bryn's card: Gale") == 2


def comparing(*draws: str) -> Table:
    """Three seats: Ash a Gale, Bryn a Lensmaker, Cato a Sootsweep."""
    return Table(3, rounds=(stacked("hearthflame", ("gale", "lensmaker", "sootsweep"), draws),))


def test_w8_given_a_gale_then_the_lower_flame_is_snuffed_and_only_its_card_is_shown():
    """W8: Ash's Ferrywoman beats Bryn's Lensmaker; the Lensmaker is shown, the Ferrywoman not."""
    table = comparing("ferrywoman")
    before = len(table.history)
    table.play(0, "gale", target=1)
    assert table.last(FlamesCompared).loser == 1
    assert not table.view(None).seats[1].lit and table.view(None).ash == ("lensmaker",)
    public = table.lines(None, since=before)
    assert public[1:3] == [
        "Ash and Bryn compare flames: Bryn's is lower.",
        "Bryn's flame is snuffed; the Lensmaker goes to the ash.",
    ]
    assert not any("Ferrywoman" in line for line in public)
    assert table.lines(0, since=before) == public and table.lines(1, since=before) == public


def test_w8_given_a_gale_when_the_players_card_is_lower_then_the_player_is_snuffed():
    """W8: the Gale you played is not compared; your remaining card is."""
    table = comparing("lamp_warden")
    table.play(0, "gale", target=1)
    assert table.last(FlameSnuffed).seat == 0 and table.view(None).ash == ("lamp_warden",)
    assert table.view(None).turn == 1


def test_w8_given_a_gale_with_equal_cards_then_it_is_equal_flames_and_nothing_is_shown():
    """W8: a tie is 'equal flames'; neither card is shown and no note is made."""
    table = comparing("lensmaker")
    before = len(table.history)
    table.play(0, "gale", target=1)
    assert table.last(FlamesCompared).loser is None
    assert "Ash and Bryn compare flames: equal flames." in table.lines()
    assert table.view(None).ash == () and all(s.lit for s in table.view(None).seats)
    assert table.view(0).notes == () and table.view(1).notes == ()
    assert all(line.startswith(("Bryn draws", "You drew")) for line in table.private_lines(1)[-1:])
    assert len(table.lines(0, since=before)) == len(table.lines(None, since=before))


def test_w9_given_a_veiled_seat_then_it_cannot_be_chosen_and_its_veil_drops_at_its_next_turn():
    """W9, W5: a veiled seat is skipped as a target, still takes its turn, and unveils then."""
    deal = stacked(
        "hearthflame",
        ("veilkeeper", "lamp_warden", "gale"),
        ("moth_duchess", "lensmaker", "lensmaker"),
    )
    table = Table(3, rounds=(deal,))
    table.play(0, "veilkeeper")
    assert table.view(None).seats[0].veiled
    assert table.refuses_play(1, "lensmaker", target=0) == "Ash is veiled and cannot be chosen"
    assert {p.target for p in table.legal(1)} == {2}
    table.play(1, "lensmaker", target=2)
    table.play(2, "lensmaker", target=1)
    assert table.view(None).turn == 0 and not table.view(None).seats[0].veiled
    assert "Ash's veil drops." in table.lines()


def test_w10_given_a_sootsweep_then_the_target_discards_face_up_and_draws_a_replacement():
    """W10: the discard is public and unresolved; the replacement is private."""
    deal = stacked("hearthflame", ("sootsweep", "gale", "lensmaker"), ("veilkeeper", "ferrywoman"))
    table = Table(3, rounds=(deal,))
    assert table.refuses_play(0, "sootsweep", target=0) == "you cannot choose yourself"
    table.play(0, "sootsweep", target=1)
    assert table.hand(1)[0] == "ferrywoman" and table.view(None).ash == ("gale",)
    assert "Bryn discards the Gale into the ash without resolving it." in table.lines()
    assert "Bryn draws a replacement." in table.lines()
    assert "You drew the Ferrywoman." in table.lines(1)
    assert not any("Ferrywoman" in line for line in table.lines(None))


def test_w10_given_a_sootsweep_when_the_target_discards_the_hearthflame_then_it_is_snuffed_without_replacement():
    """W10 and the Hearthflame: a discarded Hearthflame snuffs its seat; nothing is drawn."""
    deal = stacked("gale", ("sootsweep", "hearthflame", "lensmaker"), ("veilkeeper",))
    table = Table(3, rounds=(deal,))
    size = table.view(None).deck_size
    table.play(0, "sootsweep", target=1)
    assert not table.view(None).seats[1].lit and table.count(ReplacementDrawn) == 0
    assert table.view(None).deck_size == size - 1  # only Cato's draw for the next turn
    assert "Bryn's flame is snuffed." in table.lines()


def test_w11_given_a_ferrywoman_then_lit_unveiled_seats_pass_clockwise_and_the_hearthflame_survives():
    """W11: the veiled Dell is passed over; Cato passes the Hearthflame and stays lit."""
    deal = stacked(
        "gale", ("veilkeeper", "gale", "lensmaker", "hearthflame"), ("moth_duchess", "ferrywoman")
    )
    table = Table(4, rounds=(deal,), opener=3)
    table.play(3, "veilkeeper")
    table.play(0, "ferrywoman")
    assert table.last(CardsPassed).seats == (0, 1, 2)
    assert [table.hand(s)[0] for s in range(4)] == [
        "hearthflame",
        "gale",
        "lensmaker",
        "moth_duchess",
    ]
    assert all(s.lit for s in table.view(None).seats)
    assert "Ash, Bryn and Cato pass their hidden cards clockwise." in table.lines()
    assert "You passed the Gale to Bryn and received the Hearthflame from Cato." in table.lines(0)


def test_w11_given_two_seats_then_the_pass_is_a_trade():
    """W11: at two seats the pass is a trade."""
    deal = stacked("gale", ("ferrywoman", "lensmaker"), ("veilkeeper",), TWO_WARDENS_UP)
    table = Table(2, rounds=(deal,))
    table.play(0, "ferrywoman")
    assert table.hand(0) == ["lensmaker"] and table.hand(1)[0] == "veilkeeper"
    assert "Ash and Bryn trade hidden cards." in table.lines()


def test_w11_given_fewer_than_two_seats_in_the_pass_then_the_ferrywoman_does_nothing():
    """W11: everyone else veiled: the Ferrywoman does nothing."""
    deal = stacked(
        "gale", ("veilkeeper", "ferrywoman"), ("moth_duchess", "lensmaker"), TWO_WARDENS_UP
    )
    table = Table(2, rounds=(deal,), opener=1)
    table.play(1, "veilkeeper")
    table.play(0, "ferrywoman")
    assert table.count(CardsPassed) == 0 and table.hand(0) == ["lensmaker"]
    assert (
        "Ash played the Ferrywoman; fewer than two seats can pass, so nothing happens."
        in table.lines()
    )


@pytest.mark.parametrize(
    ("other", "title"), [("sootsweep", "Sootsweep"), ("ferrywoman", "Ferrywoman")]
)
def test_w12_given_the_moth_duchess_beside_a_sootsweep_or_ferrywoman_then_she_must_be_played(
    other, title
):
    """W12: the Moth Duchess is forced by a Sootsweep or a Ferrywoman; she has no effect."""
    table = Table(
        3, rounds=(stacked("hearthflame", ("moth_duchess", "gale", "lensmaker"), (other,)),)
    )
    assert table.legal(0) == [PlayCard(card="moth_duchess")]
    assert (
        table.refuses_play(0, other, target=1)
        == f"you must play the Moth Duchess while you hold the {title}"
    )
    assert (
        table.refuses_play(0, other) == f"you must play the Moth Duchess while you hold the {title}"
    )
    table.play(0, "moth_duchess")
    assert table.hand(0) == [other] and table.view(None).ash == ()


def test_w12_given_the_moth_duchess_beside_the_hearthflame_then_she_is_the_only_play_but_not_forced():
    """W12: the Hearthflame is never offered, so the Moth Duchess is the only card to play."""
    table = Table(
        3, rounds=(stacked("gale", ("moth_duchess", "gale", "lensmaker"), ("hearthflame",)),)
    )
    assert table.legal(0) == [PlayCard(card="moth_duchess")]
    assert (
        table.refuses_play(0, "hearthflame")
        == "the Hearthflame is never played; play your other card"
    )


def test_w12_given_the_moth_duchess_beside_another_card_then_she_is_a_bluff_and_either_may_be_played():
    """W12: otherwise the Moth Duchess is optional."""
    table = Table(
        3, rounds=(stacked("hearthflame", ("moth_duchess", "gale", "lensmaker"), ("lensmaker",)),)
    )
    assert [p.card for p in table.legal(0)] == ["lensmaker", "lensmaker", "moth_duchess"]
    table.play(0, "lensmaker", target=2)
    assert table.hand(0) == ["moth_duchess"]


def test_hearthflame_given_it_in_hand_then_it_is_never_offered_as_a_play():
    """W12 and the Hearthflame: never a voluntary play."""
    table = Table(
        3, rounds=(stacked("gale", ("hearthflame", "gale", "lensmaker"), ("veilkeeper",)),)
    )
    assert table.legal(0) == [PlayCard(card="veilkeeper")]
    assert "never played" in table.refuses_play(0, "hearthflame")


def test_hearthflame_given_it_among_the_two_seat_face_up_set_asides_then_it_is_not_a_discard():
    """The Hearthflame: the face-up set-asides at two seats are not a discard; nobody is snuffed."""
    table = Table(
        2, rounds=(stacked("gale", ("gale", "lensmaker"), face_up=("hearthflame", "lamp_warden")),)
    )
    view = table.view(None)
    assert view.face_up == ("hearthflame", "lamp_warden") and all(s.lit for s in view.seats)
    assert view.counter["hearthflame"] == 0 and view.counter["lamp_warden"] == 3
    assert "Set aside face up: the Hearthflame and the Lamp Warden." in table.lines()
