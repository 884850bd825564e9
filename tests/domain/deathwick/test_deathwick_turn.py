"""D4, D5 and D9: the turn's phases, the empty Candle, and Concurrent Flames."""

from __future__ import annotations

import pytest
from deathwick_support import Table

from domain.core.errors import NotYourTurn
from domain.core.templates import ChooseCards, Template, completed
from domain.deathwick.commands import CastCard, DiscardCard, DiscardCards, Haunt, PassRitual
from domain.deathwick.events import (
    CardBurned,
    CardsDrawn,
    RoundBegan,
    SeatFallen,
    StepBegan,
    TurnEnded,
)
from domain.deathwick.flow import cut, group_size


def test_d5_the_haunting_burns_one_per_ghost_before_the_draw():
    """D5: given two ghosts in Bryn's Shadow, when Bryn's turn begins, then two cards burn from
    the top of the Candle to The Dark before the draw."""
    t = Table(3, candles=([], ["AH", "2H", "3H", "4C", "5C", "6C"]))
    t.give(1, shadow=["9D", "9C"], by=0)
    t.finish(0)
    burned = [e.card for e in t.of(CardBurned)]
    assert [e.seat for e in t.of(CardBurned)] == [1, 1]
    assert t.state.dark[:2] == (burned[1], burned[0])
    assert t.last(CardsDrawn).seat == 1 and len(t.hand(1)) == 4


def test_d5_the_first_burn_that_cannot_be_paid_consumes():
    """D5, D4: given Bryn has 2 ghosts and 1 card left in the Candle, when Bryn's turn begins,
    then one card burns and the second Burn consumes Bryn."""
    t = Table(3)
    t.give(1, shadow=["9D", "9C"], by=0, candle=["2S"])
    t.finish(0)
    assert t.count(CardBurned) == 1
    assert t.last(SeatFallen).seat == 1 and t.last(SeatFallen).fate == "consumed"
    assert t.to_act() == (2,)


def test_d5_the_burden_waits_for_the_player_to_choose_discards():
    """D5: given six cards in hand after the action, when the Ritual ends, then the player
    discards down to 5, one card of their choosing at a time."""
    t = Table(3, candles=([], [], []))
    t.give(0, hand=["2H", "9C", "9D", "9S", "KH", "AC"], candle=["QS", "3D", "4D"])
    t.send(0, CastCard(card="2H"))  # Greed: 6 - 1 + 2 = 7 cards
    assert t.legal(0) == [DiscardCard(card=c) for c in ["9C", "9D", "9S", "KH", "AC", "QS", "3D"]]
    t.send(0, DiscardCard(card="KH"))
    assert t.to_act() == (0,)
    t.send(0, DiscardCard(card="QS"))
    assert t.hand(0) == ["9C", "9D", "9S", "AC", "3D"] and t.last(TurnEnded).seat == 0


def test_d5_the_whole_burden_is_one_command_and_offered_as_one_choice():
    """D5, in one command: given seven cards after the action, when the player sends the two to
    discard at once, then both go to The Dark and the turn ends, as two single discards would;
    a client is offered one choice of 2 of the hand, whose command is itself legal."""
    t = Table(3, candles=([], [], []))
    t.give(0, hand=["2H", "9C", "9D", "9S", "KH", "AC"], candle=["QS", "3D", "4D"])
    t.send(0, CastCard(card="2H"))  # Greed: 7 cards
    hand = ("3D", "9C", "9D", "9S", "AC", "KH", "QS")
    [offered] = t.game.offered(t.state, 0)
    assert offered == Template(
        command=DiscardCards(cards=("3D", "9C")),
        choose=ChooseCards(field="cards", count=2, among=hand),
        label="Discard 2 cards of your choice, down to your hand limit")
    t.send(0, completed(offered, ("QS", "KH")))
    assert t.hand(0) == ["9C", "9D", "9S", "AC", "3D"] and t.last(TurnEnded).seat == 0


def test_d5_the_whole_burden_refuses_a_wrong_count_or_a_card_not_held():
    """D5: the cards sent at once must be exactly those over the limit, each one held, and only
    in the Burden; a refusal changes nothing."""
    t = Table(3, candles=([], [], []))
    t.give(0, hand=["2H", "9C", "9D", "9S", "KH", "AC"], candle=["QS", "3D", "4D"])
    assert "in the Burden" in t.refuses(0, DiscardCards(cards=()))
    t.send(0, CastCard(card="2H"))
    assert "exactly 2 cards" in t.refuses(0, DiscardCards(cards=("KH",)))
    assert "exactly 2 cards" in t.refuses(0, DiscardCards(cards=("KH", "QS", "AC")))
    assert "you hold no KH" in t.refuses(0, DiscardCards(cards=("KH", "KH")))
    assert "you hold no 5S" in t.refuses(0, DiscardCards(cards=("KH", "5S")))
    assert t.game.offered(t.state, 0)[0].choose.count == 2


def test_d5_a_burden_of_one_card_is_offered_a_card_at_a_time():
    """D5: one card over the limit: the offer is the single discards, as legal_actions lists."""
    t = Table(3, candles=([], [], []))
    t.give(0, hand=["2H", "9C", "9D", "9S", "KH"], candle=["QS", "3D", "4D"])
    t.send(0, CastCard(card="2H"))  # 6 cards
    assert t.game.offered(t.state, 0) == t.legal(0)


def test_d5_three_ghosts_of_one_suit_possess_at_the_end_of_the_turn():
    """D5: given three clubs ghosts, when the turn ends without removing one, then the player
    is Possessed; a player who Banishes one in time survives."""
    t = Table(3, candles=(["JC", "4D", "6D", "8D"],))
    t.give(0, shadow=["2C", "3C", "4C"], by=1)
    t.finish(0)
    assert t.last(SeatFallen).fate == "possessed"
    t = Table(3, candles=(["JC", "4D", "6D", "8D"],))
    t.give(0, shadow=["2C", "3C", "4C"], by=1)
    from domain.deathwick.commands import Banish

    t.send(0, Banish(card="JC", ghost="4C"))
    assert t.count(SeatFallen) == 0 and t.last(TurnEnded).seat == 0


def test_d4_standard_ritual_lets_an_emptied_candle_finish_its_turn_then_consumes():
    """D4 standard: given Mara's Candle empty after the Draw, when Mara acts, then she finishes
    her turn and is Consumed at its end."""
    t = Table(3, candles=(["2H", "3H", "4H", "5H"],))
    t.give(0, candle=[])
    assert t.legal(0)
    t.finish(0)
    assert t.last(SeatFallen).seat == 0 and t.last(SeatFallen).fate == "consumed"


def test_d4_dark_ritual_consumes_an_empty_candle_at_once():
    """D4 dark: given the dark ritual and Mara's last card, when it is drawn, then she is
    Consumed at once, with no action."""
    t = Table(3, ritual="dark", first=2)
    t.give(0, candle=["7S"])
    t.finish(2)
    assert t.last(SeatFallen).seat == 0 and t.to_act() == (1,)


def test_d4_dark_ritual_consumes_a_drained_neighbour_on_the_attackers_turn():
    """D4 dark: given Bryn's Candle holds one card, when Mara Drains it, then Bryn is Consumed
    at once, on Mara's turn."""
    t = Table(3, ritual="dark", candles=(["4H", "8C", "9D", "2D"],))
    t.give(1, candle=["7S"])
    t.send(0, CastCard(card="4H", target=1))
    t.allow(1)
    assert t.last(SeatFallen).seat == 1


@pytest.mark.parametrize(("alive", "k"), [(2, 1), (5, 1), (6, 2), (8, 2), (9, 3), (14, 3),
                                          (15, 4), (20, 4)])
def test_d9_acting_groups_by_living_players(alive, k):
    """D9: 1 for 2 to 5 living players, 2 for 6 to 8, 3 for 9 to 14, 4 for 15 to 20."""
    assert group_size(alive) == k


def test_d9_arcs_are_as_equal_as_possible_longer_first():
    """D9: 15 seats in 4 arcs are 4, 4, 4 and 3 long."""
    assert cut(list(range(15)), 4) == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14))


def test_d9_the_ith_seat_of_every_arc_takes_its_turn_at_once():
    """D9: given 20 players, when the round begins, then seats 0, 5, 10 and 15 act at once; the
    step ends only when all four have ended their turns."""
    t = Table(20)
    assert t.last(StepBegan).seats == (0, 5, 10, 15) and t.to_act() == (0, 5, 10, 15)
    t.finish(10)
    t.finish(0)
    t.finish(15)
    assert t.to_act() == (5,)
    assert "not your turn" in t.refuses(1, PassRitual(), NotYourTurn)
    t.finish(5)
    assert t.last(StepBegan).seats == (1, 6, 11, 16)


def test_d9_arcs_are_recomputed_each_round_as_players_fall():
    """D9: given 6 players, one Consumed in round 1, when round 2 begins, then 5 living play one
    at a time from the same starter."""
    t = Table(6, first=2)
    assert t.last(RoundBegan).arcs == ((2, 3, 4), (5, 0, 1))
    t.concede(4)
    for _ in range(3):
        for seat in t.to_act():
            t.finish(seat)
    assert t.last(RoundBegan).round == 2 and t.last(RoundBegan).arcs == ((2, 3, 5, 0, 1),)


def test_d9_each_round_starts_with_the_same_starter_or_the_next_living_seat():
    """D9: given the first player out, when the next round begins, then the next living seat
    clockwise starts it."""
    t = Table(3, first=1)
    t.finish(1)
    t.finish(2)
    t.concede(1)
    t.finish(0)
    assert t.last(RoundBegan).arcs == ((2, 0),)


def test_d9_concurrent_players_haunt_each_other_s_neighbours_in_arrival_order():
    """D9: given 6 players, seats 0 and 3 act at once; when 3 acts before 0, then its action
    is applied first and 0 still owes its turn."""
    t = Table(6)
    assert t.to_act() == (0, 3)
    number = next(c for c in t.hand(3) if c[:-1] in {"A", "2", "3", "4", "6", "7", "8", "9", "10"}
                  and c != "JOKER")
    t.send(3, Haunt(card=number, target=2))
    t.allow(2)
    assert t.shadow(2) == [number] and t.to_act() == (0,)


def test_d4_dark_ritual_a_panic_flipping_the_last_card_consumes_and_play_goes_on():
    """D4 dark: given Mara's Candle holds one card, when she Panics it away, then she is Consumed
    at once and Bryn's turn begins."""
    t = Table(3, ritual="dark", candles=(["8C", "2D", "3D", "KD"],))
    t.give(0, shadow=["4C"], by=1, candle=["9H"])
    from domain.deathwick.commands import Panic

    t.send(0, Panic(ghost="4C"))
    assert t.last(SeatFallen).seat == 0 and t.to_act() == (1,)
