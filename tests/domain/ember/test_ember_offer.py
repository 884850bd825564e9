"""What a client is offered (Rulebook.offer): Ember's discard to hand size and a payment of more
than one handful as one template each (choose k of the hand), never every combination, while
legal_actions keeps every complete command and decide refuses any set the rules do not allow."""

from __future__ import annotations

import msgspec

from domain.core.rng import Rng
from domain.core.templates import Template, completed, fits
from domain.ember.commands import Conjure, EndTurn, UseAbility
from domain.ember.game import GAME
from tests.domain.ember.ember_support import Table


def test_a_discard_to_hand_size_is_offered_as_one_template_of_the_hand():
    table = Table()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    table.place(0, "lantern_moth")
    table.send(0, UseAbility(card="lantern_moth"))  # draws 2: seven in hand
    hand = tuple(sorted(table.hand(0)))
    ends = [a for a in GAME.legal_actions(table.state, 0) if isinstance(a, EndTurn)]
    offered = [a for a in GAME.offered(table.state, 0)
               if isinstance(a, Template) and isinstance(a.command, EndTurn)]
    assert len(ends) == 21  # 7 choose 2
    assert len(offered) == 1
    assert (offered[0].choose.field, offered[0].choose.count, offered[0].choose.among) \
        == ("discard", 2, hand)
    assert offered[0].command in ends  # sent as it is, it is a legal move
    assert offered[0].label == "End your turn, discarding 2 cards of your choice"
    assert all(fits(offered[0], end) for end in ends)


def test_a_template_completed_with_a_set_the_rules_refuse_is_refused():
    table = Table()
    table.give(0, "fire-1", "fire-2", "fire-3", "fire-4", "fire-5")
    table.place(0, "lantern_moth")
    table.send(0, UseAbility(card="lantern_moth"))
    template = next(a for a in GAME.offered(table.state, 0)
                    if isinstance(a, Template) and isinstance(a.command, EndTurn))
    assert "discard exactly 2" in table.refuses(0, completed(template, ("fire-1",)))
    assert "discard" in table.refuses(0, completed(template, ("fire-1", "air-13")))


def test_a_cost_paid_by_more_than_one_handful_is_one_template_naming_the_cost():
    table = Table()
    table.give(0, "fire-4", "earth-4", "air-4", "water-9", "water-2")
    payments = [a for a in GAME.legal_actions(table.state, 0)
                if isinstance(a, Conjure) and a.card == "moss_vole"]
    offered = [a for a in GAME.offered(table.state, 0)
               if isinstance(a, Template) and a.command.card == "moss_vole"]
    assert len(payments) == 3  # any two of the three 4s
    assert len(offered) == 1 and offered[0].choose.count == 2
    assert offered[0].choose.rule == "the cards pay a pair (two of one number)"
    assert "do not pay" in table.refuses(0, completed(offered[0], ("fire-4", "water-9")))


def test_over_random_play_every_legal_command_is_offered_itself_or_by_exactly_one_template():
    """Given 20 seeded three-seat matches, at every turn: every complete command is offered as
    itself or fits exactly one template, every template stands for at least one, and the offer
    is far shorter than the combinations (460 complete commands at most, 50 offered)."""
    most = {"complete": 0, "offered": 0}
    for seed in range(20):
        rng = Rng(b"offer %d" % seed)
        state = GAME.initial
        for event in GAME.setup(msgspec.convert({}, GAME.Options), ("a", "b", "c"), rng):
            state = GAME.evolve(state, event)
        pick = Rng(b"pick %d" % seed).stream("pick")
        for _ in range(400):
            if GAME.outcome(state) is not None:
                break
            seat = GAME.to_act(state)[0]
            complete, offered = GAME.legal_actions(state, seat), GAME.offered(state, seat)
            templates = [t for t in offered if isinstance(t, Template)]
            for command in complete:
                assert command in offered or sum(fits(t, command) for t in templates) == 1
            assert all(any(fits(t, command) for command in complete) for t in templates)
            most = {"complete": max(most["complete"], len(complete)),
                    "offered": max(most["offered"], len(offered))}
            for event in GAME.decide(state, seat, pick.choice(complete), rng):
                state = GAME.evolve(state, event)
    assert most["complete"] > 5 * most["offered"]
