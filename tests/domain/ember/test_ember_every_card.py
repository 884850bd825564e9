"""Every card plays its ability (E4, E6, E8), generated from the card table of every rules version:
each creature, dragon part, artifact (ongoing, exhaust and drain), each dragon's Legendary
ability and each tutor.

The exhausting abilities are used by Bryn while it is Ash's turn (E8: at any time); the checks
live with each effect of the vocabulary, so a new card is tested by being in cards.toml.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.ember import VERSIONS
from domain.ember.board import counts_for, final_score, hand_size, tutor_bonus, vp
from domain.ember.cards import DRAGONS, Ability, card_set
from domain.ember.commands import Draw, UseAbility
from domain.ember.effects import STEPS
from domain.ember.events import AbilityUsed, CardsDrawn
from domain.ember.legal import legal_actions
from domain.ember.versions import RULESETS
from tests.domain.ember.ember_support import Table

RULES = [book.rules_version for book in VERSIONS]

USER, OTHER = 1, 0  # Bryn uses the ability on Ash's turn
SPARE = ("ember_mote", "dew_sprite", "gust_finch")  # creatures to aim at, never the card used


def spare(*not_these: str) -> str:
    """A VP 1 or 2 creature that is none of the given cards."""
    return next(card for card in SPARE if card not in not_these)


def use(table: Table, card: str, power: str, target: str | None = None,
        seat: int | None = None) -> None:
    """Bryn uses the card's ability, offered to it although it is Ash's turn (E8)."""
    command = UseAbility(card=card, power=power, target=target, seat=seat)  # type: ignore[arg-type]
    assert command in legal_actions(table.state, USER)
    table.send(USER, command)
    assert table.last(AbilityUsed).card == card


def check_draw(table: Table, card: str, power: str, ability: Ability) -> None:
    """draw n: the hand grows by n cards from the top of the deck."""
    top = table.board.deck[:ability.n]
    before = table.hand(USER)
    use(table, card, power)
    assert table.hand(USER) == (*before, *top)


def check_scavenge(table: Table, card: str, power: str, ability: Ability) -> None:
    """scavenge n: the top numbered cards of the Charred pile go to the hand (EH5: an Archmage
    stays in the pile)."""
    table.char("fire-3", "air-4", "archmage-1")
    use(table, card, power)
    taken = ("air-4", "fire-3")[:ability.n]
    assert table.hand(USER)[-len(taken):] == taken
    assert "archmage-1" in table.board.charred


def check_advance(table: Table, card: str, power: str, ability: Ability) -> None:
    """advance n: another exhausted card of the seat turns n steps towards Ready."""
    other = spare(card, *table_cards(table))
    table.place(USER, other, turned="exhausted")
    use(table, card, power)
    assert table.held(other).turned == STEPS[min(2, ability.n)]


def check_regress(table: Table, card: str, power: str, ability: Ability) -> None:
    """regress n: an opponent's Ready card turns n steps back, never past Exhausted (E5)."""
    victim = spare(card, *table_cards(table))
    table.place(OTHER, victim)
    use(table, card, power, target=victim)
    assert table.held(victim).turned == STEPS[max(0, 2 - ability.n)]


def check_burn(table: Table, card: str, power: str, ability: Ability) -> None:
    """burn max_vp: an opponent's creature of at most that VP is Burned; a greater one is not
    offered."""
    victim = spare(card, *table_cards(table))
    table.place(OTHER, victim)
    big = "starfall_serpent"
    table.place(OTHER, big)
    offered = {a.target for a in legal_actions(table.state, USER)
               if isinstance(a, UseAbility) and a.card == card and a.power == power}
    assert (big in offered) == (ability.max_vp >= 13)
    use(table, card, power, target=victim)
    assert table.held(victim).burned


def check_regenerate(table: Table, card: str, power: str, ability: Ability) -> None:
    """regenerate: the seat's Burned creature is turned face up and Ready (E5)."""
    burned = spare(card, *table_cards(table))
    table.place(USER, burned, turned="exhausted", burned=True)
    use(table, card, power, target=burned)
    assert not table.held(burned).burned and table.held(burned).turned == "ready"


def check_steal(table: Table, card: str, power: str, ability: Ability) -> None:
    """steal n: n cards go at random from the chosen seat's hand to the user's."""
    table.give(OTHER, "fire-9", "water-9", "earth-9")
    mine = len(table.hand(USER))
    use(table, card, power, seat=OTHER)
    assert len(table.hand(OTHER)) == 3 - ability.n and len(table.hand(USER)) == mine + ability.n
    assert set(table.hand(USER)) & {"fire-9", "water-9", "earth-9"}


def check_discard(table: Table, card: str, power: str, ability: Ability) -> None:
    """discard n: the chosen seat discards n cards at random onto the Charred pile."""
    table.give(OTHER, "fire-9", "water-9", "earth-9")
    use(table, card, power, seat=OTHER)
    assert len(table.hand(OTHER)) == 3 - ability.n
    assert set(table.board.charred[-ability.n:]) <= {"fire-9", "water-9", "earth-9"}


def table_cards(table: Table) -> list[str]:
    """Every card in play."""
    return [h.card for w in table.board.seats for h in w.cards]


CHECKS: dict[str, Callable[[Table, str, str, Ability], None]] = {
    "draw": check_draw, "scavenge": check_scavenge, "advance": check_advance,
    "regress": check_regress, "burn": check_burn, "regenerate": check_regenerate,
    "steal": check_steal, "discard": check_discard,
}
USED = [(rules, card.id, ability.kind) for rules in RULES
        for card in card_set(rules).cards.values() for ability in card.abilities
        if ability.kind in ("exhaust", "drain")]
ONGOING = [(rules, card.id) for rules in RULES for card in card_set(rules).cards.values()
           if card.ability("ongoing") is not None]
TUTORED = [(rules, tutor) for rules in RULES for tutor in card_set(rules).tutors]


@pytest.mark.parametrize(("rules", "card", "power"), USED,
                         ids=[f"v{r}-{c}-{p}" for r, c, p in USED])
def test_e4_e8_each_exhaust_and_drain_ability_does_what_its_effect_says(rules, card, power):
    table = Table(face_up=13, version=rules)
    table.place(USER, card)
    ability = card_set(rules).cards[card].ability(power)
    assert ability is not None
    CHECKS[ability.effect](table, card, power, ability)
    held = table.held(card)
    assert held.turned == "exhausted"
    assert held.drained == held.burned == (power == "drain")


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("dragon", list(DRAGONS))
def test_e2_each_dragons_legendary_ability_works_with_its_three_parts(dragon, rules):
    table = Table(face_up=13, version=rules)
    tail, body, head = DRAGONS[dragon].parts
    table.place(USER, body, turned="exhausted")
    table.place(USER, head, turned="exhausted")
    assert not any(isinstance(a, UseAbility) and a.power == "legendary"
                   for a in legal_actions(table.state, USER))
    table.place(USER, tail)
    legendary = DRAGONS[dragon].legendary
    CHECKS[legendary.effect](table, tail, "legendary", legendary)
    assert table.held(tail).turned == "exhausted"


@pytest.mark.parametrize(("rules", "card"), ONGOING, ids=[f"v{r}-{c}" for r, c in ONGOING])
def test_e4_each_ongoing_ability_works_while_its_card_is_ready_and_not_when_exhausted(rules, card):
    ability = card_set(rules).cards[card].ability("ongoing")
    assert ability is not None
    match ability.effect:
        case "hand_size":
            table = Table(face_up=13, version=rules)
            table.place(USER, card)
            assert hand_size(table.board, USER) == max(2, 5 + ability.n)
            exhausted = Table(face_up=13, version=rules)
            exhausted.place(USER, card, turned="exhausted")
            assert hand_size(exhausted.board, USER) == 5
        case "extra_draw":
            for turned, drawn in (("ready", 1 + ability.n), ("recovering", 1)):
                table = Table(face_up=13, version=rules)
                table.next_round()
                table.place(OTHER, card, turned=turned)
                table.send(OTHER, Draw(recycle=table.hand(OTHER)[0]))
                assert len(table.last(CardsDrawn).cards) == drawn
        case "ward":
            for turned, shielded in (("ready", True), ("exhausted", False)):
                table = Table(face_up=13, version=rules)
                table.place(USER, card, turned=turned)
                table.place(USER, "ember_mote")
                table.place(OTHER, "flare_salamander")  # burns VP 4 (version 2: 6) or less
                aims = {a.target for a in legal_actions(table.state, OTHER)
                        if isinstance(a, UseAbility) and a.card == "flare_salamander"}
                assert ("ember_mote" not in aims) == shielded
        case _:
            raise AssertionError(f"no test for the ongoing effect {ability.effect}")


@pytest.mark.parametrize(("rules", "tutor"), TUTORED, ids=[f"v{r}-{t}" for r, t in TUTORED])
def test_e2_e9_each_tutor_adds_its_modifier_to_the_final_score(rules, tutor):
    cards = card_set(rules)
    ability = cards.tutors[tutor].ability
    other = next(t for t in cards.tutors if t != tutor)
    table = Table(face_up=13, tutors=[tutor, other], version=rules)
    parts = RULESETS[rules].parts_are_creatures
    counting = next(c for c in cards.cards.values() if counts_for(ability, c, parts))
    table.place(OTHER, counting.id)
    table.place(OTHER, "world_turtle", burned=True)  # a Burned card counts for nothing
    assert tutor_bonus(table.board, OTHER) == ability.vp
    assert final_score(table.board, OTHER) == vp(table.board, OTHER) + ability.vp

