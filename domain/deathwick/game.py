"""Deathwick as the match service drives it: one Rulebook per rules version (versions.py)."""

from __future__ import annotations

import functools

from domain.core.decider import Rulebook
from domain.deathwick import (
    audit,
    bot,
    classes,
    commands,
    events,
    flow,
    grimoire,
    labels,
    log,
    observer,
    options,
)
from domain.deathwick import outcome as outcomes
from domain.deathwick.commands import Command
from domain.deathwick.events import Event
from domain.deathwick.evolve import evolve
from domain.deathwick.legal import legal_actions, offer, to_act
from domain.deathwick.observer import DeathwickView
from domain.deathwick.rules import decide_steps
from domain.deathwick.state import UNFORMED, State, Unformed
from domain.deathwick.time_out import on_time_out
from domain.deathwick.versions import V1, V2, Ruleset

DeathwickRulebook = Rulebook[State | Unformed, Command, Event, DeathwickView, Command]


def rulebook(ruleset: Ruleset) -> DeathwickRulebook:
    """Deathwick under one rules version: the same functions; the setup records the version in
    the circle, and the rules (the fold included) read its switches from there."""
    return Rulebook(
        id="deathwick",
        title="Deathwick",
        rules_version=ruleset.version,
        min_seats=options.MIN_SEATS,
        max_seats=options.MAX_SEATS,
        Options=options.Options,
        Command=commands.Command,
        Event=events.Event,
        View=observer.DeathwickView,
        initial=UNFORMED,
        check_options=options.check_options,
        setup=functools.partial(flow.form, ruleset=ruleset),
        decide_steps=decide_steps,
        evolve=evolve,
        legal_actions=legal_actions,
        offer=offer,
        to_act=to_act,
        observe=observer.observe,
        observe_over=observer.observe_over,
        log_entries=log.log_entries,
        outcome=outcomes.outcome,
        secrets=audit.secrets,
        label=labels.label,
        on_time_out=on_time_out,
        bots=bot.BOTS,
        cards=grimoire.card_texts(ruleset) + classes.class_texts(),
    )


GAME_V1 = rulebook(V1)  # as first released
GAME_V2 = rulebook(V2)  # DH17, DH18, DH19 (issue 31): the rulebook where version 1 departed
GAME = GAME_V2  # the latest: what a new match is played with
VERSIONS = (GAME_V1, GAME_V2)
