"""Deathwick as the match service drives it: its Rulebook (the Game protocol of domain.core)."""

from __future__ import annotations

from domain.core.decider import Rulebook
from domain.deathwick import (
    audit,
    bot,
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
from domain.deathwick.legal import legal_actions, to_act
from domain.deathwick.observer import DeathwickView
from domain.deathwick.rules import decide_steps
from domain.deathwick.state import UNFORMED, State, Unformed
from domain.deathwick.time_out import on_time_out

GAME: Rulebook[State | Unformed, Command, Event, DeathwickView, Command] = Rulebook(
    id="deathwick",
    title="Deathwick",
    rules_version="1",
    min_seats=options.MIN_SEATS,
    max_seats=options.MAX_SEATS,
    Options=options.Options,
    Command=commands.Command,
    Event=events.Event,
    View=observer.DeathwickView,
    initial=UNFORMED,
    check_options=options.check_options,
    setup=flow.form,
    decide_steps=decide_steps,
    evolve=evolve,
    legal_actions=legal_actions,
    to_act=to_act,
    observe=observer.observe,
    log_entries=log.log_entries,
    outcome=outcomes.outcome,
    secrets=audit.secrets,
    label=labels.label,
    on_time_out=on_time_out,
    bots=bot.BOTS,
    cards=grimoire.card_texts(),
)
