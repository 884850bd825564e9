"""D6 and the rulebook's FAQ: every action, the Grimoire, Banish, Siphon and Panic."""

from __future__ import annotations

from deathwick_support import Table, codes

from domain.deathwick.commands import Banish, CastCard, Haunt, Panic, PassRitual
from domain.deathwick.events import (
    CandleDrained,
    CardClaimed,
    CardsScared,
    EffectFizzled,
    GhostBanished,
    GhostRisen,
    HandSeen,
    SeatFallen,
)


def test_d6_haunt_puts_a_number_card_into_a_neighbours_shadow_with_its_origin():
    """D6: given Mara holds the 7 of hearts, when she Haunts Bryn and Bryn allows, then it is a
    ghost in Bryn's Shadow put there by Mara; a face card or a non-neighbour is refused."""
    t = Table(4, candles=(["7H", "KH", "9C", "2D"],))
    assert "only the Warlock" in t.refuses(0, Haunt(card="KH", target=1))
    assert "neighbour" in t.refuses(0, Haunt(card="7H", target=2))
    t.send(0, Haunt(card="7H", target=1))
    t.allow(1)
    assert t.shadow(1) == ["7H"] and t.player(1).shadow[0].by == 0
    assert "Mara Haunts Bryn with the 7 of hearts." in t.lines()


def test_d6_salt_is_never_cast():
    """D6: a 5 is only a reaction."""
    t = Table(3, candles=(["5H", "9C", "2D", "3D"],))
    assert "only a reaction" in t.refuses(0, CastCard(card="5H"))


def test_d6_sight_shows_the_target_s_hand_to_the_looker_only():
    """A SIGHT: given Bryn's hand, when Mara looks, then she alone keeps a snapshot of it."""
    t = Table(3, candles=(["AH", "9C", "2D", "3D"], ["6S", "7S", "8S"]))
    t.send(0, CastCard(card="AH", target=1))
    t.allow(1)
    assert codes(t.last(HandSeen).cards) == ["6S", "7S", "8S"]
    assert [s.cards for s in t.view(0).sights] == [("6S", "7S", "8S")]
    assert t.view(2).sights == () and t.view(None).sights == ()
    assert "You see Bryn's hand: the 6 of spades, the 7 of spades and the 8 of spades." in \
        t.private_lines(0)


def test_d6_greed_draws_two():
    """2 GREED: two cards from the Candle to the hand."""
    t = Table(3, candles=(["2H", "9C", "9D", "3D", "QS", "KS"],))
    t.send(0, CastCard(card="2H"))
    assert t.hand(0) == ["9C", "9D", "3D", "QS", "KS"]


def test_d6_scare_discards_one_random_card_of_the_target_to_the_dark():
    """3 SCARE, D7: a card of Bryn's hand, chosen by the seeded generator, goes to The Dark."""
    t = Table(3, candles=(["3H", "9C", "9D", "2D"], ["6S", "7S", "8S"]))
    t.send(0, CastCard(card="3H", target=1))
    t.allow(1)
    (lost,) = t.last(CardsScared).cards
    assert t.state.dark[1] == lost and codes(t.state.dark)[0] == "3H"  # then the spent 3


def test_d6_drain_moves_the_top_of_a_neighbours_candle_onto_yours():
    """4 DRAIN: Bryn's top card goes on top of Mara's Candle."""
    t = Table(3, candles=(["4H", "9C", "9D", "2D"],))
    top = t.player(1).candle[0]
    t.send(0, CastCard(card="4H", target=1))
    t.allow(1)
    assert t.player(0).candle[0] == top and t.count(CandleDrained) == 1


def test_faq_drain_on_an_empty_candle_fizzles():
    """FAQ "top of Candle" effects with no cards: given Bryn's Candle is empty, when Mara
    Drains it, then nothing happens and the 4 is spent."""
    t = Table(3, candles=(["4H", "9C", "9D", "2D"],))
    t.give(1, candle=[])
    mine = t.player(0).candle
    t.send(0, CastCard(card="4H", target=1))
    t.allow(1)
    assert t.count(EffectFizzled) == 1 and t.player(0).candle == mine
    assert codes(t.state.dark)[0] == "4H"


def test_d6_claim_takes_a_random_card_of_the_target_s_hand():
    """6 CLAIM, D7: a seeded random card of Bryn's hand goes to Mara's; both learn which."""
    t = Table(3, candles=(["6H", "9C", "9D", "2D"], ["JS", "QS", "KS"]))
    t.send(0, CastCard(card="6H", target=1))
    t.allow(1)
    taken = t.last(CardClaimed).card
    assert taken in t.player(0).hand and len(t.hand(1)) == 3  # two left, then Bryn's draw
    assert any("from Bryn" in line for line in t.private_lines(0))
    assert any("claimed your" in line for line in t.private_lines(1))


def test_d6_cleanse_siphons_on_a_suit_match_and_never_a_spade():
    """7 CLEANSE and the FAQ: the 7 of hearts on a 3 of hearts ghost Siphons it to the bottom of
    the Candle; on a 3 of spades ghost it destroys it to The Dark."""
    t = Table(3, candles=(["7H", "9C", "9D", "2D"],))
    t.give(0, shadow=["3H", "3S"], by=1)
    t.send(0, CastCard(card="7H", ghost="3H"))
    assert t.last(GhostBanished).siphoned and codes(t.player(0).candle)[-1] == "3H"
    t = Table(3, candles=(["7S", "9C", "9D", "2D"],))
    t.give(0, shadow=["3S"], by=1)
    t.send(0, CastCard(card="7S", ghost="3S"))
    assert not t.last(GhostBanished).siphoned and codes(t.state.dark)[:2] == ["7S", "3S"]


def test_d6_recall_takes_a_ghost_from_any_shadow_to_the_hand():
    """8 RECALL: from one's own Shadow (no window) or another's (its owner's window)."""
    t = Table(4, candles=(["8H", "9C", "9D", "2D"],))
    t.give(2, shadow=["6C"], by=1)
    t.send(0, CastCard(card="8H", target=2, ghost="6C"))
    assert t.to_act() == (2,)
    t.allow(2)
    assert t.shadow(2) == [] and "6C" in t.hand(0)


def test_d6_possess_moves_a_ghost_to_a_neighbour_and_records_who_moved_it():
    """9 POSSESS: Mara's 6 of clubs ghost goes to Bryn's Shadow, put there by Mara."""
    t = Table(3, candles=(["9H", "8C", "2D", "3D"],))
    t.give(0, shadow=["6C"], by=2)
    t.send(0, CastCard(card="9H", target=1, ghost="6C"))
    t.allow(1)
    assert t.shadow(0) == [] and t.shadow(1) == ["6C"] and t.player(1).shadow[0].by == 0


def test_d6_rekindle_puts_the_top_three_of_the_dark_on_the_candle():
    """10 REKINDLE: the top 3 of The Dark, as they lie, on top of the Candle."""
    t = Table(3, candles=(["10H", "8C", "2D", "3D"],))
    top = t.state.dark[:3]
    t.send(0, CastCard(card="10H"))
    assert t.player(0).candle[:3] == top


def test_d6_mirror_swaps_shadows():
    """J MIRROR: Mara's and Bryn's Shadows change places."""
    t = Table(3, candles=(["JH", "8C", "2D", "3D"],))
    t.give(0, shadow=["6C", "7C"], by=1)
    t.give(1, shadow=["2D"], by=2)
    t.send(0, CastCard(card="JH", target=1))
    t.allow(1)
    assert t.shadow(0) == ["2D"] and t.shadow(1) == ["6C", "7C"]


def test_d6_medium_takes_the_top_of_the_dark_to_hand_or_two_onto_the_candle():
    """Q MEDIUM (DH5): 'hand' takes the top card of The Dark; 'candle' the top 2 onto it."""
    t = Table(3, candles=(["QH", "QD", "2D", "3D"],))
    top = t.state.dark[0]
    t.send(0, CastCard(card="QH", choice="hand"))
    assert top in t.player(0).hand
    t = Table(3, candles=(["QH", "QD", "2D", "3D"],))
    top2 = t.state.dark[:2]
    t.send(0, CastCard(card="QH", choice="candle"))
    assert t.player(0).candle[:2] == top2


def test_d6_purge_banishes_every_ghost_and_siphons_a_king_that_is_not_a_spade():
    """K PURGE (and DH18): every ghost goes; a king ghost of the Cast king's suit, hearts, is
    Siphoned, one of spades is not."""
    t = Table(3, candles=(["KH", "8C", "2D", "3D"],))
    t.give(0, shadow=["KH", "KS", "4C"], by=1)
    t.send(0, CastCard(card="KH"))
    assert t.shadow(0) == [] and codes(t.player(0).candle)[-1] == "KH"
    assert [e.siphoned for e in t.of(GhostBanished)] == [False, False, True]


def test_faq_boo_burns_past_face_cards_to_a_number_card_that_becomes_a_ghost():
    """JOKER BOO! and the FAQ: given Bryn's Candle starts J, Q, joker, 7, when Mara Casts BOO!,
    then Bryn burns the three to The Dark and the 7 becomes a ghost; no window opens."""
    t = Table(3, candles=(["JOKER", "8C", "2D", "3D"],))
    t.give(1, candle=["JH", "QS", "JOKER", "7D", "2C"])
    t.give(2, candle=["KD"])
    t.send(0, CastCard(card="JOKER"))
    after = t.after(GhostRisen, 0)
    assert [g.card for g in after.players[1].shadow] == [t.player(1).shadow[0].card]
    assert codes(after.players[1].candle) == ["2C"] and codes(after.dark)[:3] == ["JOKER", "QS",
                                                                                 "JH"]
    assert t.last(GhostRisen).by == 0
    assert t.last(SeatFallen).seat == 2 and t.last(SeatFallen).fate == "consumed"


def test_d6_banish_siphons_on_a_rank_match_and_destroys_otherwise():
    """Banish and Siphon (FAQ): the 7 of hearts on a 7 of clubs ghost Siphons; the 9 of hearts
    on it destroys it to The Dark; a lower card is refused."""
    t = Table(3, candles=(["7H", "9H", "6S", "3D"],))
    t.give(0, shadow=["7C"], by=1)
    assert "does not meet or beat" in t.refuses(0, Banish(card="6S", ghost="7C"))
    t.send(0, Banish(card="7H", ghost="7C"))
    assert t.last(GhostBanished).siphoned and codes(t.player(0).candle)[-1] == "7C"
    assert codes(t.state.dark)[0] == "7H"
    t = Table(3, candles=(["7H", "9H", "6S", "3D"],))
    t.give(0, shadow=["7C"], by=1)
    t.send(0, Banish(card="9H", ghost="7C"))
    assert not t.last(GhostBanished).siphoned and codes(t.state.dark)[:2] == ["9H", "7C"]


def test_faq_the_same_card_banishes_its_twin_and_siphons_it():
    """FAQ same rank and same suit: with two decks, a 7 of hearts on a 7 of hearts ghost."""
    t = Table(3, candles=(["7H", "9H", "6S", "3D"],))
    t.give(0, shadow=["7H"], by=1)
    t.send(0, Banish(card="7H", ghost="7H"))
    assert t.last(GhostBanished).siphoned


def test_faq_spades_are_never_siphoned():
    """FAQ spades: the 7 of spades on a 7 of spades ghost destroys it to The Dark."""
    t = Table(3, candles=(["7S", "9H", "6S", "3D"],))
    t.give(0, shadow=["7S"], by=1)
    t.send(0, Banish(card="7S", ghost="7S"))
    assert not t.last(GhostBanished).siphoned and codes(t.state.dark)[0] == "7S"


def test_faq_a_face_card_ghost_is_siphoned_by_a_10_of_its_suit():
    """FAQ face card ghost (the Warlock's), DH18: the 10 of hearts on a queen of hearts ghost
    Siphons it; the 10 of spades on a queen of hearts ghost destroys it."""
    t = Table(3, candles=(["10H", "10S", "6S", "3D"],))
    t.give(0, shadow=["QH"], by=1)
    t.send(0, Banish(card="10H", ghost="QH"))
    assert t.last(GhostBanished).siphoned
    t = Table(3, candles=(["10H", "10S", "6S", "3D"],))
    t.give(0, shadow=["QH"], by=1)
    t.send(0, Banish(card="10S", ghost="QH"))
    assert not t.last(GhostBanished).siphoned


def test_d6_panic_destroys_a_ghost_the_flip_meets_and_the_flip_goes_to_the_dark():
    """Panic: the flipped 9 beats a 4 ghost (destroyed); a flipped 2 does not (it stays)."""
    t = Table(3, candles=(["8C", "2D", "3D", "KD"],))
    t.give(0, shadow=["4C"], by=1, candle=["9H", "AS"])
    t.send(0, Panic(ghost="4C"))
    assert t.shadow(0) == [] and codes(t.state.dark)[:2] == ["4C", "9H"]
    t = Table(3, candles=(["8C", "2D", "3D", "KD"],))
    t.give(0, shadow=["4C"], by=1, candle=["2H", "AS"])
    t.send(0, Panic(ghost="4C"))
    assert t.shadow(0) == ["4C"] and codes(t.state.dark)[0] == "2H"


def test_faq_panic_on_a_joker_siphons_unless_the_ghost_is_a_spade():
    """FAQ Panic and Joker: a flipped joker Siphons a 9 of clubs ghost; a 9 of spades is only
    destroyed."""
    t = Table(3, candles=(["8C", "2D", "3D", "KD"],))
    t.give(0, shadow=["9C"], by=1, candle=["JOKER", "AS"])
    t.send(0, Panic(ghost="9C"))
    assert t.last(GhostBanished).siphoned and codes(t.player(0).candle) == ["AS", "9C"]
    t = Table(3, candles=(["8C", "2D", "3D", "KD"],))
    t.give(0, shadow=["9S"], by=1, candle=["JOKER", "AS"])
    t.send(0, Panic(ghost="9S"))
    assert not t.last(GhostBanished).siphoned


def test_d6_pass_ends_the_ritual():
    """Pass: nothing happens; the next seat acts."""
    t = Table(3)
    t.send(0, PassRitual())
    assert t.to_act() == (1,)


def test_dh4_a_sight_snapshot_lasts_until_the_lookers_next_turn():
    """DH4: Mara keeps her snapshot of Bryn's hand through the round, not into her next turn."""
    t = Table(2, candles=(["AH", "9C", "9D", "2D"], ["6S", "7S", "8S"]))
    t.send(0, CastCard(card="AH", target=1))
    t.allow(1)
    t.finish(1)
    assert t.view(0).sights == ()
