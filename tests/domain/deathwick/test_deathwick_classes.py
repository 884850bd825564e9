"""D3: the eleven classes' powers, and the FAQ's class edge cases."""

from __future__ import annotations

from deathwick_support import Table, codes

from domain.deathwick.commands import Banish, CancelHaunt, CastCard, Haunt, Ignite, Panic
from domain.deathwick.events import CardBurned, CardsScared, HandSeen, HauntCancelled, TurnEnded


def test_d3_the_watcher_sees_both_neighbours_each_with_its_own_window():
    """The Watcher (DH2): Sight on Bryn, then on Cato; each may answer its own look."""
    t = Table(3, candles=(["AH", "9C", "9D", "2D"], ["6S", "7S", "8S"], ["2H", "3H", "4H"]))
    t.give(0, curse="watcher")
    t.send(0, CastCard(card="AH", target=1))
    t.allow(1)
    assert t.to_act() == (2,)
    t.allow(2)
    assert [e.target for e in t.of(HandSeen)] == [1, 2] and len(t.view(0).sights) == 2


def test_d3_the_sadist_scares_two_cards():
    """The Sadist: Scare discards 2 cards of the neighbour's hand (DH3: blind, seeded)."""
    t = Table(3, candles=(["3H", "9C", "9D", "2D"], ["6S", "7S", "8S"]))
    t.give(0, curse="sadist")
    t.send(0, CastCard(card="3H", target=1))
    t.allow(1)
    assert len(t.last(CardsScared).cards) == 2


def test_d3_the_occultist_possesses_any_players_shadow():
    """The Occultist: Possess sends a ghost to a seat that is not a neighbour."""
    t = Table(5, candles=(["9H", "8C", "2D", "3D"],))
    t.give(0, shadow=["6C"], by=1, curse="occultist")
    t.send(0, CastCard(card="9H", target=2, ghost="6C"))
    t.allow(2)
    assert t.shadow(2) == ["6C"]
    t = Table(5, candles=(["9H", "8C", "2D", "3D"],))
    t.give(0, shadow=["6C"], by=1)
    assert "neighbour" in t.refuses(0, CastCard(card="9H", target=2, ghost="6C"))


def test_d3_the_sealbinders_ghosts_cannot_be_possessed_recalled_or_carried_by_a_mirror():
    """The Sealbinder: its Haunted ghosts stay put."""
    t = Table(3, candles=(["9H", "8C", "JD", "3D"],))
    t.give(0, shadow=["6C"], by=1, bound="sealbinder")
    assert "cannot be Possessed" in t.refuses(0, CastCard(card="9H", target=1, ghost="6C"))
    assert "cannot be Recalled" in t.refuses(0, CastCard(card="8C", ghost="6C"))
    t.send(0, CastCard(card="JD", target=2))
    t.allow(2)
    assert t.shadow(0) == ["6C"]


def test_d3_the_sealbinders_haunt_binds_its_ghost():
    """The Sealbinder: a ghost it Haunts is marked as its own."""
    t = Table(3, candles=(["7H", "8C", "JD", "3D"],))
    t.give(0, curse="sealbinder")
    t.send(0, Haunt(card="7H", target=1))
    t.allow(1)
    assert t.player(1).shadow[0].bound == "sealbinder"


def test_d3_the_clowns_ghosts_leave_only_by_a_face_card_banish_or_cleanse():
    """The Clown: a 9 cannot Banish its 4 ghost, nor a Panic; a jack can; so can Cleanse."""
    t = Table(3, candles=(["9H", "JC", "7D", "3D"],))
    t.give(0, shadow=["4C"], by=1, bound="clown")
    assert "face card" in t.refuses(0, Banish(card="9H", ghost="4C"))
    assert "Clown" in t.refuses(0, Panic(ghost="4C"))
    assert Banish(card="JC", ghost="4C") in t.legal(0)
    t.send(0, CastCard(card="7D", ghost="4C"))
    assert t.shadow(0) == []


def test_faq_mirror_or_possess_against_the_gatekeeper_is_blocked_and_the_card_not_spent():
    """FAQ: the Gatekeeper cannot be chosen by Mirror or Possess; the card stays in hand."""
    t = Table(3, candles=(["JH", "9C", "2D", "3D"],))
    t.give(0, shadow=["6C"], by=2)
    t.give(1, curse="gatekeeper")
    assert "Gatekeeper" in t.refuses(0, CastCard(card="JH", target=1))
    assert "Gatekeeper" in t.refuses(0, CastCard(card="9C", target=1, ghost="6C"))
    assert "JH" in t.hand(0) and "9C" in t.hand(0)
    assert CastCard(card="JH", target=1) not in t.legal(0)


def test_faq_the_unseen_cancels_a_haunt_once_per_attackers_turn_not_once_per_round():
    """FAQ Haunt vs the Unseen: Bryn discards any card to cancel Mara's Haunt; the power is spent
    for that turn of Mara's only, and Cato's Haunt in the same round can be cancelled too."""
    t = Table(3, candles=(["7H", "9C", "2D", "3D"], ["KS", "QS", "JS"], ["8D", "AC", "2C"]))
    t.give(1, curse="unseen")
    t.send(0, Haunt(card="7H", target=1))
    assert CancelHaunt(card="KS") in t.legal(1)
    t.send(1, CancelHaunt(card="KS"))
    assert t.shadow(1) == [] and codes(t.state.dark)[:2] == ["7H", "KS"]
    assert t.last(HauntCancelled).power == "unseen"
    t.finish(1)
    t.send(2, Haunt(card="8D", target=1))
    assert CancelHaunt(card="QS") in t.legal(1)


def test_faq_the_hex_cancels_a_number_haunt_with_a_card_of_its_rank():
    """FAQ Haunt vs the Hex: Bryn reveals a 7 to cancel a 7 Haunt; a 9 cannot."""
    t = Table(3, candles=(["7H", "9C", "2D", "3D"], ["7S", "9S", "JS"]))
    t.give(1, curse="hex")
    t.send(0, Haunt(card="7H", target=1))
    assert CancelHaunt(card="7S") in t.legal(1) and CancelHaunt(card="9S") not in t.legal(1)
    t.send(1, CancelHaunt(card="7S"))
    assert t.shadow(1) == [] and t.player(1).cancels == (1,)


def test_d3_the_hoarder_keeps_eight_cards():
    """The Hoarder: hand limit 8; effects may push over until the end of the turn."""
    t = Table(3, candles=([],))
    t.give(0, hand=["2H", "3C", "4C", "6C", "7C", "8C", "9C"], curse="hoarder")
    t.send(0, CastCard(card="2H"))
    assert len(t.hand(0)) == 8 and t.last(TurnEnded).seat == 0


def test_d3_the_pyromaniac_discards_a_card_to_make_a_neighbour_burn_once_per_turn():
    """The Pyromaniac: besides its action, Bryn burns one card; a second ignite is refused."""
    t = Table(3, candles=(["2S", "3S", "8C", "7C"],))
    t.give(0, curse="pyromaniac")
    t.send(0, Ignite(card="2S", target=1))
    t.allow(1)
    assert t.last(CardBurned).seat == 1 and t.to_act() == (0,)
    assert "once per turn" in t.refuses(0, Ignite(card="3S", target=1))
    assert all(not isinstance(a, Ignite) for a in t.legal(0))


def test_d3_the_warlock_haunts_with_a_face_card():
    """The Warlock: a king becomes a ghost of strength 10."""
    t = Table(3, candles=(["KH", "3S", "8C", "7C"],))
    t.give(0, curse="warlock")
    t.send(0, Haunt(card="KH", target=1))
    t.allow(1)
    assert t.shadow(1) == ["KH"]
    t = Table(3, candles=(["JOKER", "3S", "8C", "7C"],))
    t.give(0, curse="warlock")
    assert "never a ghost" in t.refuses(0, Haunt(card="JOKER", target=1))
