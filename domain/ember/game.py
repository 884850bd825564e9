"""Ember as the match service drives it: its Rulebook, one per rules version."""

from __future__ import annotations

from domain.core.decider import Rulebook
from domain.ember import audit, bot, commands, events, flow, labels, log, observer, options, outcome
from domain.ember.commands import Command
from domain.ember.events import Event
from domain.ember.evolve import evolve
from domain.ember.legal import legal_actions, may_act, to_act
from domain.ember.observer import EmberView
from domain.ember.rules import decide_steps
from domain.ember.state import UNDEALT, State, Undealt
from domain.ember.time_out import on_time_out

GAME: Rulebook[State | Undealt, Command, Event, EmberView, Command] = Rulebook(
    id="ember",
    title="Ember",
    rules_version="1",
    min_seats=options.MIN_SEATS,
    max_seats=options.MAX_SEATS,
    Options=options.Options,
    Command=commands.Command,
    Event=events.Event,
    View=observer.EmberView,
    initial=UNDEALT,
    check_options=options.check_options,
    setup=flow.deal,
    decide_steps=decide_steps,
    evolve=evolve,
    legal_actions=legal_actions,
    to_act=to_act,
    may_act=may_act,
    observe=observer.observe,
    log_entries=log.log_entries,
    outcome=outcome.outcome,
    secrets=audit.secrets,
    label=labels.label,
    on_time_out=on_time_out,
    bots=bot.BOTS,
)
VERSIONS = (GAME,)
