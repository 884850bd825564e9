"""Our house rulings DH1 to DH16 (docs/rules/deathwick.md) that the other files do not pin."""

from __future__ import annotations

from deathwick_support import Table

from domain.core.reactions import Allow
from domain.deathwick import GAME
from domain.deathwick.commands import (
    Banish,
    CancelHaunt,
    CastCard,
    ChooseClass,
    DiscardCard,
    Haunt,
    PassRitual,
    ThrowSalt,
)
from domain.deathwick.events import SeatFallen


def test_dh1_a_salted_attacker_still_faces_the_burden_and_possession():
    """DH1: given Mara has three clubs ghosts, when Bryn's Salt cancels her Haunt, then her
    turn still ends with Am I Alive, and she is Possessed."""
    t = Table(3, candles=(["7H", "2D", "3D", "4D"], ["5H", "2C", "3C"]))
    t.give(0, shadow=["2C", "3C", "4C"], by=1)
    t.send(0, Haunt(card="7H", target=1))
    t.send(1, ThrowSalt(card="5H"))
    t.allow(0)
    assert t.last(SeatFallen).seat == 0 and t.last(SeatFallen).fate == "possessed"


def test_dh6_a_purge_removes_the_clowns_ghosts():
    """DH6: a Purge is a king's Banish, a face card's, so the Clown's ghosts go too."""
    t = Table(3, candles=(["KD", "8C", "2D", "3D"],))
    t.give(0, shadow=["4C", "6H"], by=1, bound="clown")
    t.send(0, CastCard(card="KD"))
    assert t.shadow(0) == []


def test_dh8_time_outs_take_the_first_class_pass_and_discard_the_lowest_card():
    """DH8: the draft's first offered class; Pass in the Ritual; the lowest card in the Burden."""
    t = Table(2, offers=[["watcher", "hex", "clown"], ["hoarder", "unseen", "warlock"]])
    assert GAME.on_time_out(t.state, 1) == ChooseClass(name="hoarder")
    t = Table(3)
    assert GAME.on_time_out(t.state, 0) == PassRitual()
    t = Table(3, candles=([],))
    t.give(0, hand=["2H", "9C", "9D", "3S", "KH", "AC"], candle=["QS", "3D", "4D"])
    t.send(0, CastCard(card="2H"))
    assert GAME.on_time_out(t.state, 0) == DiscardCard(card="AC")


def test_dh9_class_offers_are_public():
    """DH9: every seat (and a spectator) sees what each seat was offered."""
    t = Table(2, offers=[["watcher", "hex", "clown"], ["hoarder", "unseen", "warlock"]])
    assert t.view(None).players[1].offer == ("hoarder", "unseen", "warlock")
    assert t.view(0).players[1].offer == ("hoarder", "unseen", "warlock")


def test_dh11_the_unseen_may_cancel_after_a_counter_salt():
    """DH11: Bryn (the Unseen) Salts, Mara counters; Bryn may still cancel the Haunt."""
    t = Table(3, candles=(["7H", "5S", "2D", "3D"], ["5H", "KC", "2C"]))
    t.give(1, curse="unseen")
    t.send(0, Haunt(card="7H", target=1))
    t.send(1, ThrowSalt(card="5H"))
    t.send(0, ThrowSalt(card="5S"))
    assert CancelHaunt(card="KC") in t.legal(1)
    t.send(1, CancelHaunt(card="KC"))
    assert t.shadow(1) == []


def test_dh14_a_ghost_named_by_its_card_is_the_first_copy_that_fits():
    """DH14: given a Clown's 4 of clubs ghost and an ordinary one, when Mara Banishes "4C" with
    a 9, then the ordinary one goes and the Clown's stays."""
    t = Table(3, candles=(["9H", "8C", "2D", "3D"],))
    t.give(0, shadow=["4C"], by=1, bound="clown")
    from domain.deathwick.state import Ghost, with_player

    clown = t.player(0).shadow[0]
    t.state = with_player(t.state, 0, shadow=(clown, Ghost(card=clown.card + 54, by=2)))
    t.send(0, Banish(card="9H", ghost="4C"))
    assert [g.bound for g in t.player(0).shadow] == ["clown"]


def test_d8_allow_is_offered_in_every_window():
    """D8: a seat in a window may always allow."""
    t = Table(3, candles=(["7H", "5S", "2D", "3D"],))
    t.send(0, Haunt(card="7H", target=1))
    assert Allow() in t.legal(1)
