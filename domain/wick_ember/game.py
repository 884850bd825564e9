"""Wick & Ember as the match service drives it: its Rulebook (the Game protocol of domain.core)."""

from __future__ import annotations

from domain.core.decider import Rulebook
from domain.wick_ember import (
    audit,
    bot,
    cards,
    commands,
    events,
    labels,
    log,
    observer,
    options,
    outcome,
    rounds,
    rules,
)
from domain.wick_ember.commands import Command, PlayCard
from domain.wick_ember.events import Event
from domain.wick_ember.evolve import evolve
from domain.wick_ember.legal import legal_actions, to_act
from domain.wick_ember.observer import WickEmberView
from domain.wick_ember.state import UNLIT, State, Unlit
from domain.wick_ember.time_out import on_time_out

GAME: Rulebook[State | Unlit, Command, Event, WickEmberView, PlayCard] = Rulebook(
    id="wick-and-ember",
    title="Wick & Ember",
    rules_version="1",
    min_seats=options.MIN_SEATS,
    max_seats=options.MAX_SEATS,
    Options=options.Options,
    Command=commands.Command,
    Event=events.Event,
    View=observer.WickEmberView,
    initial=UNLIT,
    check_options=options.check_options,
    setup=rounds.open_night,
    decide_steps=rules.decide_steps,
    evolve=evolve,
    legal_actions=legal_actions,
    to_act=to_act,
    observe=observer.observe,
    log_entries=log.log_entries,
    outcome=outcome.outcome,
    secrets=audit.secrets,
    label=labels.label,
    on_time_out=on_time_out,
    bots=bot.BOTS,
    cards=cards.card_texts(),
)
