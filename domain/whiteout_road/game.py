"""Whiteout Road as the match service drives it: one Rulebook per rules version (versions.py)."""

from __future__ import annotations

import functools

from domain.core.decider import Rulebook
from domain.whiteout_road import (
    audit,
    cards,
    commands,
    events,
    labels,
    log,
    nights,
    observer,
    options,
    outcome,
    rules,
)
from domain.whiteout_road.commands import Command, Commit
from domain.whiteout_road.events import Event
from domain.whiteout_road.evolve import evolve
from domain.whiteout_road.legal import legal_actions, to_act
from domain.whiteout_road.observer import WhiteoutView
from domain.whiteout_road.state import UNOPENED, State, Unopened
from domain.whiteout_road.time_out import on_time_out
from domain.whiteout_road.versions import V1, V2, Ruleset

WhiteoutRulebook = Rulebook[State | Unopened, Command, Event, WhiteoutView, Commit]


def rulebook(ruleset: Ruleset) -> WhiteoutRulebook:
    """Whiteout Road under one rules version: the same functions, closed over its switches."""
    return Rulebook(
        id="whiteout-road",
        title="Whiteout Road",
        rules_version=ruleset.version,
        min_seats=options.MIN_SEATS,
        max_seats=options.MAX_SEATS,
        Options=options.Options,
        Command=commands.Command,
        Event=events.Event,
        View=observer.WhiteoutView,
        initial=UNOPENED,
        check_options=options.check_options,
        setup=functools.partial(nights.open_road, ruleset=ruleset),
        decide_steps=functools.partial(rules.decide_steps, ruleset=ruleset),
        evolve=evolve,
        legal_actions=legal_actions,
        to_act=to_act,
        observe=observer.observe,
        log_entries=log.log_entries,
        outcome=outcome.outcome,
        secrets=audit.secrets,
        label=labels.label,
        on_time_out=on_time_out,
        cards=cards.card_texts(),
    )


GAME_V1 = rulebook(V1)  # H8: with every watch-pile empty, nobody gets the Long Watch
GAME_V2 = rulebook(V2)  # R9: a tie at zero cards pays each seat still in the full +5
GAME = GAME_V2  # the latest: what a new match is played with
VERSIONS = (GAME_V1, GAME_V2)
