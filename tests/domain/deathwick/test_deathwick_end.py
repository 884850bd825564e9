"""D10: falling, the last one standing, shared wins and conceding; D11: views and log lines."""

from __future__ import annotations

from deathwick_support import Table, codes

from domain.deathwick import GAME
from domain.deathwick.audit import secrets
from domain.deathwick.commands import CastCard, Haunt
from domain.deathwick.events import CircleClosed, SeatFallen


def test_d10_a_fallen_seats_cards_go_face_up_to_the_dark_and_its_neighbours_close_the_gap():
    """D10: given Bryn concedes, then her hand, Shadow and Candle are in The Dark and Mara's
    neighbours are Cato and Dell."""
    t = Table(4)
    t.give(1, shadow=["3C"], by=0)
    held = len(t.player(1).hand) + 1 + len(t.player(1).candle)
    dark = len(t.state.dark)
    t.concede(1)
    assert t.last(SeatFallen).fate == "conceded" and len(t.state.dark) == dark + held
    assert t.view(None).players[0].left == 2 and t.view(None).players[2].right == 0


def test_d10_the_last_one_standing_wins():
    """D10: given two players, when one concedes, then the other wins."""
    t = Table(2)
    t.concede(0)
    assert t.last(CircleClosed).winners == (1,)
    assert GAME.outcome(t.state).placements == (2, 1)


def test_d10_the_last_players_out_together_share_the_win():
    """D10: given the dark ritual, Bryn Casts BOO! and both others' Candles run out at once,
    then Bryn alone stands; when everyone left falls in one event, they share."""
    t = Table(3, candles=([], ["JOKER", "2D", "3D", "4D"]), first=1)
    t.give(0, candle=["KH"])
    t.give(2, candle=["QS"])
    t.send(1, CastCard(card="JOKER"))
    assert t.last(CircleClosed).winners == (1,)
    from domain.core.steps import Steps
    from domain.deathwick.evolve import evolve
    from domain.deathwick.flow import fall

    t = Table(3)
    t.concede(2)
    steps = Steps(t.state, evolve)
    fall(steps, [0, 1], "consumed")
    assert steps.events[-1] == CircleClosed(winners=(0, 1))


def test_d10_a_concession_in_a_window_cancels_the_action_it_is_part_of():
    """D10, DH7: Bryn concedes while Mara's Haunt waits on her: the Haunt is cancelled."""
    t = Table(3, candles=(["7H", "8C", "2D", "3D"],))
    t.send(0, Haunt(card="7H", target=1))
    t.concede(1)
    assert t.to_act() == (2,) and all(p.shadow == () for p in t.state.players)


def test_d11_views_show_candle_sizes_but_never_a_candles_cards():
    """D11: a Candle appears as its size, to its owner too; hands as sizes except one's own."""
    t = Table(3)
    own = t.view(0)
    assert own.players[0].candle == len(t.player(0).candle) and len(own.hand) == 4
    assert all(isinstance(p.candle, int) for p in own.players)
    top = t.player(0).candle[0]
    from domain.deathwick.cards import code

    assert code(top) in secrets(t.state, 0) or code(top) in own.hand or code(top) in own.dark


def test_d11_the_split_shadow_names_each_ghosts_side():
    """D11: with three or more players a ghost from the left neighbour lies on the left."""
    t = Table(4, candles=(["7H", "8C", "2D", "3D"],))
    t.send(0, Haunt(card="7H", target=1))
    t.allow(1)
    ghost = t.view(None).players[1].shadow[0]
    assert (ghost.card, ghost.by, ghost.side) == ("7H", 0, "right")
    t2 = Table(2, candles=(["7H", "8C", "2D", "3D"],))
    t2.send(0, Haunt(card="7H", target=1))
    t2.allow(1)
    assert t2.view(None).players[1].shadow[0].side == "single"


def test_d11_pending_windows_are_public_and_the_dark_is_shown_top_first():
    """D11: everyone sees the Haunt on the table and who must answer; The Dark top first."""
    t = Table(3, candles=(["7H", "8C", "2D", "3D"],))
    t.send(0, Haunt(card="7H", target=1))
    pending = t.view(2).pending
    assert (pending.seat, pending.card, pending.target, pending.answering) == (0, "7H", 1, (1,))
    assert pending.text == "Mara Haunts Bryn with the 7 of hearts"
    from domain.deathwick.cards import code

    assert t.view(None).dark == tuple(code(c) for c in t.state.dark)


def test_d11_a_drawn_card_is_told_only_to_its_drawer():
    """D11: 'You drew ...' is private; the public line only counts."""
    t = Table(3)
    assert "Mara draws a card." in t.lines()
    assert any(line.startswith("You drew") for line in t.private_lines(0))
    assert not any(line.startswith("You drew") for line in t.lines(None))


def test_d10_a_boo_that_consumes_the_last_rival_still_spends_its_joker():
    """D10: given Bryn's BOO! consumes both others, then the circle closes with the joker gone
    from the table to the top of The Dark."""
    t = Table(3, candles=([], ["JOKER", "2D", "3D", "4D"]), first=1)
    t.give(0, candle=["KH"])
    t.give(2, candle=["QS"])
    t.send(1, CastCard(card="JOKER"))
    assert t.state.declared is None and codes(t.state.dark)[0] == "JOKER"
