"""A turn (W5), the Lamp Warden (W6) and which copy is played (H3, H4)."""

from __future__ import annotations

from wick_ember_support import Table, stacked

from domain.core.errors import NotYourTurn
from domain.wick_ember.commands import PlayCard
from domain.wick_ember.events import CardPlayed, FlameSnuffed, GuessJudged, TurnBegan
from domain.wick_ember.observer import NoteView

TWO_WARDENS_UP = ("lamp_warden", "lamp_warden")


def warden_table() -> Table:
    """Three seats: Ash holds a Lamp Warden and draws a Veilkeeper; Bryn a Gale; Cato a Lensmaker."""
    return Table(
        3, rounds=(stacked("moth_duchess", ("lamp_warden", "gale", "lensmaker"), ("veilkeeper",)),)
    )


def test_w5_given_a_new_round_then_the_opener_has_drawn_and_holds_two_cards():
    """W5: at the start of a turn the seat draws; setup leaves the opener ready to act."""
    table = warden_table()
    assert isinstance(table.events[-1], TurnBegan) and table.events[-1].seat == 0
    assert table.hand(0) == ["lamp_warden", "veilkeeper"]
    assert table.view(None).turn == 0
    assert [s.cards_in_hand for s in table.view(None).seats] == [2, 1, 1]


def test_w6_given_a_lamp_warden_when_it_names_the_targets_card_then_that_flame_is_snuffed():
    """W6: a hit snuffs the target and shows its card; the guess and result are public."""
    table = warden_table()
    events = table.play(0, "lamp_warden", target=1, guess="gale")
    assert isinstance(events[1], GuessJudged) and events[1].hit
    assert isinstance(events[2], FlameSnuffed) and events[2].seat == 1
    assert not table.view(None).seats[1].lit and table.view(None).ash == ("gale",)
    assert table.lines(since=3)[:3] == [
        "Ash played the Lamp Warden on Bryn, naming the Gale.",
        "Ash's Lamp Warden named the Gale: a hit.",
        "Bryn's flame is snuffed; the Gale goes to the ash.",
    ]


def test_w6_given_a_lamp_warden_when_it_names_another_card_then_it_misses():
    """W6: a miss changes nothing but is public."""
    table = warden_table()
    table.play(0, "lamp_warden", target=1, guess="lensmaker")
    assert table.last(GuessJudged).hit is False and table.view(None).seats[1].lit
    assert "Ash's Lamp Warden named the Lensmaker: a miss." in table.lines()
    assert table.view(None).turn == 1


def test_w6_lamp_warden_cannot_name_lamp_warden():
    """W6: naming rank 1 is refused; the guess is one of ranks 2 to 8."""
    table = warden_table()
    assert (
        table.refuses_play(0, "lamp_warden", 1, "lamp_warden")
        == "the Lamp Warden cannot name the Lamp Warden"
    )
    guesses = [p.guess for p in table.legal(0) if p.card == "lamp_warden" and p.target == 1]
    assert guesses == [
        "lensmaker",
        "gale",
        "veilkeeper",
        "sootsweep",
        "ferrywoman",
        "moth_duchess",
        "hearthflame",
    ]


def test_w6_given_a_lamp_warden_with_a_target_when_no_guess_or_no_such_card_then_it_is_refused():
    """W6: the Lamp Warden must name a card, by a card name."""
    table = warden_table()
    assert "must name a card" in table.refuses_play(0, "lamp_warden", 1)
    assert table.refuses_play(0, "lamp_warden", 1, "dragon") == "there is no card called 'dragon'"


def test_w5_given_a_card_that_chooses_a_seat_when_no_target_is_sent_then_it_is_refused():
    """W5: a missing target, when one is legal, is refused and names the choices."""
    table = warden_table()
    message = table.refuses_play(0, "lamp_warden", guess="gale")
    assert message == "the Lamp Warden must choose a seat: Bryn (seat 1), Cato (seat 2)"


def test_w5_given_an_illegal_target_then_the_message_says_why():
    """W5: yourself, a seat that does not exist, a snuffed seat: each refused with its reason."""
    table = warden_table()
    assert table.refuses_play(0, "lamp_warden", 0, "gale") == "you cannot choose yourself"
    assert table.refuses_play(0, "lamp_warden", 7, "gale") == "there is no seat 7"
    table.play(0, "lamp_warden", target=1, guess="gale")
    cato_holds = table.hand(2)
    assert "Bryn's flame is snuffed" in table.refuses_play(2, cato_holds[0], 1)


def test_w5_given_a_card_that_chooses_no_seat_when_a_target_or_guess_is_sent_then_it_is_refused():
    """W5: the Veilkeeper takes no target; only the Lamp Warden takes a guess."""
    table = warden_table()
    assert "does not choose a seat" in table.refuses_play(0, "veilkeeper", target=1)
    assert "only the Lamp Warden names a card" in table.refuses_play(0, "veilkeeper", guess="gale")


def test_w5_given_a_card_not_in_hand_then_it_is_refused():
    """W5: you play one of your two cards."""
    table = warden_table()
    assert table.refuses_play(0, "ferrywoman") == "you do not hold the Ferrywoman"
    assert table.refuses_play(0, "dragon") == "there is no card called 'dragon'"


def test_w5_given_another_seats_turn_when_a_seat_plays_then_it_is_not_its_turn():
    """W5: only the seat whose turn it is plays; a snuffed seat waits for the next round."""
    table = warden_table()
    assert (
        table.refuses(1, PlayCard(card="gale", target=0), NotYourTurn)
        == "it is Ash's turn, not yours"
    )
    table.play(0, "lamp_warden", target=1, guess="gale")
    assert "snuffed" in table.refuses(1, PlayCard(card="gale", target=0), NotYourTurn)
    assert table.legal(1) == [] and table.legal(0) == []


def test_w5_given_a_snuffed_seat_then_the_turn_passes_to_the_next_lit_seat_clockwise():
    """W5: the next lit seat clockwise takes the turn; a snuffed seat is skipped."""
    table = warden_table()
    table.play(0, "lamp_warden", target=1, guess="gale")
    assert table.view(None).turn == 2
    table.play(2, table.legal(2)[0].card, target=0, guess=table.legal(2)[0].guess)
    assert table.view(None).turn == 0


def lonely_warden() -> Table:
    """Two seats: Bryn opens and veils; Ash then holds a Lamp Warden with no one to choose."""
    deal = stacked(
        "gale",
        ("veilkeeper", "lamp_warden"),
        ("moth_duchess", "lensmaker"),
        face_up=TWO_WARDENS_UP,
    )
    table = Table(2, rounds=(deal,), opener=1)
    table.play(1, "veilkeeper")
    return table


def test_w5_given_every_other_flame_veiled_then_a_targeting_card_is_played_with_no_target():
    """W5: with no legal seat the card is played, finds no one and does nothing."""
    table = lonely_warden()
    assert table.legal(0) == [PlayCard(card="lamp_warden"), PlayCard(card="lensmaker")]
    assert "every other flame is snuffed or veiled" in table.refuses_play(
        0, "lamp_warden", 1, "gale"
    )
    events = table.play(0, "lamp_warden")
    assert [type(e) for e in events] == [CardPlayed, TurnBegan]
    assert "Ash played the Lamp Warden; it finds no one." in table.lines()


def test_h3_given_a_lamp_warden_that_finds_no_one_when_a_guess_is_sent_then_it_is_refused():
    """H3: a Lamp Warden with no legal target names no card."""
    table = lonely_warden()
    assert "finds no one, so it names no card" in table.refuses_play(0, "lamp_warden", guess="gale")


def test_h4_given_two_copies_in_hand_then_the_one_got_last_is_played_and_a_note_on_the_other_stays():
    """H4 (with W7): of two same cards, the one drawn this turn is played; a note on the older stays."""
    deal = stacked(
        "hearthflame",
        ("lensmaker", "veilkeeper", "lamp_warden"),
        ("moth_duchess", "gale", "lamp_warden"),
    )
    table = Table(3, rounds=(deal,), opener=1)
    table.play(1, "lensmaker", target=0)
    table.play(2, "veilkeeper")
    assert table.hand(0) == ["lamp_warden", "lamp_warden"]
    table.play(0, "lamp_warden", target=1, guess="gale")
    assert table.last(CardPlayed).card == 1  # ids 0 and 1 are the dealt and the drawn Lamp Warden
    note = NoteView(seat=0, card="lamp_warden", text="You saw Ash's card: Lamp Warden")
    assert table.view(1).notes == (note,)
