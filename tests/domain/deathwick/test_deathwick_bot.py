"""The wary bot beats the random one clearly (docs/rules/deathwick.md, "Bots")."""

from __future__ import annotations

from domain.core.bots import bots_of
from domain.core.rng import Rng
from domain.deathwick import GAME
from domain.deathwick.options import Options

GAMES = 200


def duel(index: int) -> int:
    """A two-seat match, the wary bot in seat index % 2; 1 if it wins alone."""
    rng = Rng(f"duel {index}".encode())
    wary_seat = index % 2
    bots = bots_of(GAME)
    state = None
    for event in GAME.setup(Options(), ("A", "B"), rng):
        state = GAME.evolve(state, event)
    for version in range(5000):
        if GAME.outcome(state) is not None:
            return int(GAME.outcome(state).winners == (wary_seat,))
        seat = GAME.to_act(state)[0]
        name = "wary" if seat == wary_seat else "random"
        actions = GAME.legal_actions(state, seat)
        action = bots[name](GAME.observe(state, seat), actions, rng.stream("bot", version, seat))
        for event in GAME.decide(state, seat, action, rng):
            state = GAME.evolve(state, event)
    raise AssertionError("the duel did not end")


def test_the_wary_bot_wins_most_duels_against_the_random_bot():
    """Given 200 two-seat matches, seats alternating, then the wary bot wins at least 65%."""
    wins = sum(duel(index) for index in range(GAMES))
    assert wins >= 0.65 * GAMES, wins


def test_the_wary_bot_is_marked_as_a_bot_of_the_game():
    """The Rulebook offers it by name beside random."""
    assert set(bots_of(GAME)) == {"random", "wary"}
