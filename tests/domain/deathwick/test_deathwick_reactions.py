"""D8: Salt, counter-Salt to any depth, allow, and the pause every other command waits for."""

from __future__ import annotations

from deathwick_support import Table, codes

from domain.core.errors import NotYourTurn
from domain.core.reactions import Allow
from domain.deathwick import GAME
from domain.deathwick.commands import CastCard, Haunt, PassRitual, ThrowSalt
from domain.deathwick.events import ActionCancelled, Haunted, ReactionAwaited, RitualDone, TurnEnded


def haunting(seats: int = 3, **options) -> Table:
    """Mara (7H, 5S, 5C) Haunts Bryn (5H, 5D, 2C), who has a window."""
    t = Table(seats, candles=(["7H", "5S", "5C", "9D"], ["5H", "5D", "2C"]), **options)
    t.send(0, Haunt(card="7H", target=1))
    return t


def test_d8_a_haunt_opens_a_window_for_its_target_and_everyone_else_waits():
    """D8: given Mara Haunts Bryn, then only Bryn may answer; Mara's and Cato's commands wait."""
    t = haunting()
    assert t.to_act() == (1,) and t.view(None).pending.answering == (1,)
    assert "reaction window" in t.refuses(0, PassRitual(), NotYourTurn)
    assert "may not answer" in t.refuses(2, Allow(), NotYourTurn)
    assert t.legal(1) == [ThrowSalt(card="5H"), ThrowSalt(card="5D"), Allow()]


def test_d8_the_defenders_salt_cancels_and_ends_the_attackers_turn():
    """D8 and the rulebook's Salt: given Bryn Salts and Mara allows, then the 7 and the Salt
    are in The Dark, nothing haunts Bryn, and Mara's Ritual is over."""
    t = haunting()
    t.send(1, ThrowSalt(card="5H"))
    assert t.to_act() == (0,)
    t.allow(0)
    assert t.shadow(1) == [] and codes(t.state.dark)[:2] == ["7H", "5H"]
    assert t.count(ActionCancelled) == 1 and t.last(RitualDone).seat == 0
    assert "Bryn answers with Salt (the 5 of hearts)." in t.lines()


def test_d8_counter_salt_lets_the_haunt_through():
    """D8 counter-Salt: given Bryn Salts and Mara counters, when Bryn allows, then the Haunt
    goes through."""
    t = haunting()
    t.send(1, ThrowSalt(card="5H"))
    t.send(0, ThrowSalt(card="5S"))
    assert t.to_act() == (1,) and t.view(None).pending.depth == 3
    t.allow(1)
    assert t.shadow(1) == ["7H"] and codes(t.after(Haunted).dark)[:2] == ["5S", "5H"]
    assert "Mara counters with Salt (the 5 of spades)." in t.lines()


def test_d8_salts_go_on_to_any_depth_and_the_last_decides():
    """D8: Salt, counter, Salt, counter, Salt: the defender's last Salt cancels the Haunt."""
    t = haunting()
    for seat, salt in [(1, "5H"), (0, "5S"), (1, "5D"), (0, "5C")]:
        t.send(seat, ThrowSalt(card=salt))
    assert t.view(None).pending.depth == 5 and t.legal(1) == [Allow()]
    t.allow(1)
    assert t.shadow(1) == ["7H"]
    t = haunting()
    for seat, salt in [(1, "5H"), (0, "5S"), (1, "5D")]:
        t.send(seat, ThrowSalt(card=salt))
    t.allow(0)
    assert t.shadow(1) == [] and t.count(ActionCancelled) == 1


def test_d8_only_when_able_opens_no_window_for_a_seat_that_cannot_answer():
    """D8 reaction_prompts=only_when_able: given Cato holds no Salt, when Bryn Haunts him, then
    the Haunt resolves at once; always opens a window anyway."""
    t = Table(3, candles=(["9D"], ["7H", "2C", "3C"], ["2H", "3H", "4H"]),
              reaction_prompts="only_when_able", first=1)
    t.send(1, Haunt(card="7H", target=2))
    assert t.count(ReactionAwaited) == 0 and t.shadow(2) == ["7H"]
    t = Table(3, candles=(["9D"], ["7H", "2C", "3C"], ["2H", "3H", "4H"]), first=1)
    t.send(1, Haunt(card="7H", target=2))
    assert t.count(ReactionAwaited) == 1 and t.legal(2) == [Allow()]


def test_d8_boo_opens_no_window():
    """D8: BOO! targets no one."""
    t = Table(3, candles=(["JOKER", "2D", "3D", "4D"],))
    t.send(0, CastCard(card="JOKER"))
    assert t.count(ReactionAwaited) == 0


def test_d8_a_window_that_times_out_is_allow():
    """D8: a seat out of time in a window answers allow (the game's declared time-out)."""
    t = haunting()
    assert GAME.on_time_out(t.state, 1) == Allow()
    assert GAME.on_time_out(t.state, 0) is None


def test_d8_a_salted_pyromaniac_ignite_ends_its_turn():
    """D3, D8: the Pyromaniac's Burn is targeted: Bryn's Salt cancels it and Mara's turn ends."""
    t = Table(3, candles=(["2S", "9D", "8C", "7C"], ["5H", "2C", "3C"]))
    t.give(0, curse="pyromaniac")
    from domain.deathwick.commands import Ignite

    t.send(0, Ignite(card="2S", target=1))
    t.send(1, ThrowSalt(card="5H"))
    t.allow(0)
    assert t.last(TurnEnded).seat == 0 and t.to_act() == (1,)
