"""Tally's two rules versions: the same functions, closed over one switch each version sets."""

from __future__ import annotations

import functools

from domain.core.decider import Rulebook
from tests.tally import rules, view
from tests.tally.rules import Ruleset

V1 = Ruleset(version="1", points_are_the_card=False)
V2 = Ruleset(version="2", points_are_the_card=True)


TallyRulebook = Rulebook[
    rules.State | rules.Undealt, rules.Command, rules.Event, view.TallyView, rules.PlayCard
]


def rulebook(ruleset: Ruleset) -> TallyRulebook:
    """Tally under one rules version."""
    return Rulebook(
        id="tally",
        title="Tally",
        rules_version=ruleset.version,
        min_seats=rules.MIN_SEATS,
        max_seats=rules.MAX_SEATS,
        Options=rules.Options,
        Command=rules.Command,
        Event=rules.Event,
        View=view.TallyView,
        initial=rules.UNDEALT,
        check_options=rules.check_options,
        setup=rules.setup,
        decide_steps=functools.partial(rules.decide_steps, ruleset=ruleset),
        evolve=rules.evolve,
        legal_actions=rules.legal_actions,
        to_act=rules.to_act,
        observe=view.observe,
        log_entries=view.log_entries,
        outcome=rules.outcome,
        secrets=view.secrets,  # what each seat may not know: the conformance suite's leak check
    )


GAME_V1 = rulebook(V1)
GAME_V2 = rulebook(V2)
