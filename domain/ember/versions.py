"""The rules versions of Ember: the switches that differ between them (docs/rules/ember.md,
"Rules versions").

A match is played, replayed and verified under the version it was dealt under, forever: the deal
records it in Dealt and the table keeps it (``Playing.rules_version``), so the rules, the fold
included, read their switches from the table itself, and its cards from that version's card set
(``domain.ember.cards.card_set``). A version is never changed once released; a correction is a
new version with its own switches.
"""

from __future__ import annotations

import msgspec

from domain.ember.state import Playing


class Ruleset(msgspec.Struct, frozen=True, kw_only=True):
    """One rules version: its number and each rule it switches."""

    version: str
    # E1, the rulebook ("when the last card in the Draw Deck is taken"): the Charred pile is
    # shuffled into a new deck as the last card is drawn; version 1 waited until a draw found the
    # deck empty.
    reshuffle_at_last_card: bool
    # The rulebook's Archmage ("Burn or Regenerate any one creature in play"): any Burned creature,
    # and every view names a Burned card (EH19); version 1 regenerated only one's own (EH7) and
    # named others' Burned cards to nobody.
    regenerate_any: bool
    # E7: every turn has its draw step, the first player's first one too, unless the host picks
    # the option first_player_skips_draw; version 1 never had it (EH15).
    first_turn_draws: bool
    # E2 ("each turn of the first player after its first"): its final turn after a Call reveals a
    # group too; version 1 revealed one only as a round began.
    final_turn_reveals: bool
    # EH18 (the rulebook: a Tutor modifies the score "with the creatures they control"): a dragon
    # part is a creature for every Tutor, so the Keeper of Small Things counts a Tail (VP 4);
    # version 1's Keeper counted the Pool's creatures only.
    parts_are_creatures: bool


V1 = Ruleset(version="1", reshuffle_at_last_card=False, regenerate_any=False,
             first_turn_draws=False, final_turn_reveals=False, parts_are_creatures=False)
V2 = Ruleset(version="2", reshuffle_at_last_card=True, regenerate_any=True,
             first_turn_draws=True, final_turn_reveals=True, parts_are_creatures=True)
RULESETS = {ruleset.version: ruleset for ruleset in (V1, V2)}


def ruleset_of(state: Playing) -> Ruleset:
    """The switches of the rules version the table was dealt under."""
    return RULESETS[state.rules_version]
