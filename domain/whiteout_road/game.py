"""Whiteout Road as the match service drives it: its Rulebook (the Game protocol of domain.core)."""

from __future__ import annotations

from domain.core.decider import Rulebook
from domain.whiteout_road import commands, events, log, nights, observer, options, outcome, rules
from domain.whiteout_road.evolve import evolve
from domain.whiteout_road.legal import legal_actions, to_act
from domain.whiteout_road.state import UNOPENED
from domain.whiteout_road.time_out import on_time_out

GAME = Rulebook(
    id="whiteout-road",
    title="Whiteout Road",
    rules_version="1",
    min_seats=options.MIN_SEATS,
    max_seats=options.MAX_SEATS,
    Options=options.Options,
    Command=commands.Command,
    Event=events.Event,
    View=observer.WhiteoutView,
    initial=UNOPENED,
    check_options=options.check_options,
    setup=nights.open_road,
    decide_steps=rules.decide_steps,
    evolve=evolve,
    legal_actions=legal_actions,
    to_act=to_act,
    observe=observer.observe,
    log_entries=log.log_entries,
    outcome=outcome.outcome,
    on_time_out=on_time_out,
)
