"""Ember as the match service drives it: one Rulebook per rules version (versions.py)."""

from __future__ import annotations

import functools

from domain.core.decider import Rulebook
from domain.ember import audit, bot, commands, events, flow, labels, log, observer, options, outcome
from domain.ember.commands import Command
from domain.ember.events import Event
from domain.ember.evolve import evolve
from domain.ember.legal import legal_actions, may_act, offer, to_act
from domain.ember.observer import EmberView
from domain.ember.rules import decide_steps
from domain.ember.state import UNDEALT, State, Undealt
from domain.ember.texts import card_texts
from domain.ember.time_out import on_time_out
from domain.ember.versions import V1, V2, Ruleset

EmberRulebook = Rulebook[State | Undealt, Command, Event, EmberView, Command]


def rulebook(ruleset: Ruleset) -> EmberRulebook:
    """Ember under one rules version: the same functions; the deal records the version on the
    table, and the rules (the fold included) read its switches and its card set from there."""
    return Rulebook(
        id="ember",
        title="Ember",
        rules_version=ruleset.version,
        min_seats=options.MIN_SEATS,
        max_seats=options.MAX_SEATS,
        Options=options.Options,
        Command=commands.Command,
        Event=events.Event,
        View=observer.EmberView,
        initial=UNDEALT,
        check_options=options.check_options,
        setup=functools.partial(flow.deal, ruleset=ruleset),
        decide_steps=decide_steps,
        evolve=evolve,
        legal_actions=legal_actions,
        to_act=to_act,
        may_act=may_act,
        offer=offer,
        observe=observer.observe,
        log_entries=log.log_entries,
        outcome=outcome.outcome,
        secrets=audit.secrets,
        label=labels.label,
        on_time_out=on_time_out,
        bots=bot.BOTS,
        cards=card_texts(ruleset.version),
    )


GAME_V1 = rulebook(V1)  # as first released: EH7, EH15, the lazy reshuffle, the card set of v1
GAME_V2 = rulebook(V2)  # by the rulebook: issue 30's seven departures mended
GAME = GAME_V2  # the latest: what a new match is played with
VERSIONS = (GAME_V1, GAME_V2)
