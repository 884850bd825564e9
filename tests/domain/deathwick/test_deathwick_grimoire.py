"""D6: the Grimoire as one table (domain/deathwick/grimoire.py), and legal actions that agree
with it: what each record says a Cast names is what the seat is offered, and what decide takes."""

from __future__ import annotations

import pytest
from deathwick_support import Table

from domain.deathwick import cards
from domain.deathwick.commands import CastCard
from domain.deathwick.grimoire import GRIMOIRE, Spell, spell_of

RULEBOOK_NAMES = {1: "Sight", 2: "Greed", 3: "Scare", 4: "Drain", 5: "Salt", 6: "Claim",
                  7: "Cleanse", 8: "Recall", 9: "Possess", 10: "Rekindle", 11: "Mirror",
                  12: "Medium", 13: "Purge", 0: "BOO!"}
SPELLS = pytest.mark.parametrize("spell", GRIMOIRE, ids=lambda spell: spell.name)
NEIGHBOURS = {1, 4}  # seat 0's, at a table of five


def code_of(spell: Spell) -> str:
    """A card of the record's rank: the heart of it, or a joker."""
    return cards.JOKER if spell.rank == 0 else cards.RANK_CODES[spell.rank - 1] + "H"


def table(spell: Spell, **curses: str) -> Table:
    """Five seats, Mara's Ritual: she holds one card of the rank and has two ghosts; Bryn (her
    neighbour) and Cato (not) have one each; ``curses`` by seat name ('s1': 'gatekeeper')."""
    t = Table(5)
    t.give(0, hand=[code_of(spell)], shadow=["7C", "6D"], by=1)
    t.give(1, shadow=["4D"], by=0)
    t.give(2, shadow=["8S"], by=3)
    for seat, curse in curses.items():
        t.give(int(seat[1:]), curse=curse)
    return t


def casts(t: Table, spell: Spell) -> list[CastCard]:
    """Mara's legal Casts of the card."""
    return [a for a in t.legal(0) if isinstance(a, CastCard) and a.card == code_of(spell)]


def test_the_grimoire_has_one_record_for_every_rank_and_the_joker_named_as_the_rulebook_does():
    """Given the Grimoire, then ranks ace to king and the joker each have one record, with the
    rulebook's name, a sentence of card text, and an effect unless it is never Cast."""
    assert sorted(spell.rank for spell in GRIMOIRE) == list(range(14))
    assert {spell.rank: spell.name for spell in GRIMOIRE} == RULEBOOK_NAMES
    assert all(spell.text.endswith(".") and len(spell.text) > 20 for spell in GRIMOIRE)
    assert [s.name for s in GRIMOIRE if s.effect is None] == ["Salt"]
    assert [s.name for s in GRIMOIRE if s.target == "never"] == ["Salt"]
    assert all(spell_of(card).rank == cards.rank(card) for card in range(cards.DECK_SIZE))


@SPELLS
def test_each_rank_is_cast_in_exactly_the_ways_its_record_says(spell):
    """Given Mara's Ritual with a card of the rank, when her legal actions are listed, then her
    Casts of it name a ghost exactly when the record says so, and the seat or choice it says."""
    t = table(spell)
    found = casts(t, spell)
    assert all((cast.ghost is not None) == spell.names_ghost for cast in found)
    assert all(cast.choice in (spell.choices or (None,)) for cast in found)
    targets = {cast.target for cast in found}
    ghosts = {cast.ghost for cast in found}
    match spell.target:
        case "never":
            assert found == []
            assert "only a reaction" in t.refuses(0, CastCard(card=code_of(spell)))
        case "none":
            assert found == [CastCard(card=code_of(spell))]
        case "choice":
            assert [cast.choice for cast in found] == list(spell.choices)
        case "neighbour":
            assert targets == NEIGHBOURS
        case "own_ghost":
            assert targets == {None} and ghosts == {"7C", "6D"}
        case "any_ghost":
            assert targets == {None, 1, 2} and ghosts == {"7C", "6D", "4D", "8S"}
        case "ghost_to_player":
            assert targets == NEIGHBOURS and ghosts == {"7C", "6D"}
    for cast in found:
        assert table(spell).send(0, cast)  # decide takes each one


@SPELLS
def test_a_cast_that_names_a_ghost_is_refused_without_one_and_one_that_names_none_with_one(spell):
    """Given the record, when Mara Casts leaving out a ghost it names (or adding one it does not),
    then decide refuses with the record's name."""
    if spell.target == "never":
        return
    t = table(spell)
    if spell.names_ghost:
        target = 1 if spell.target == "ghost_to_player" else None
        wrong = CastCard(card=code_of(spell), target=target)
        assert t.refuses(0, wrong) == f"{spell.name} names a ghost (its card, like '7C')"
    else:
        wrong = CastCard(card=code_of(spell), ghost="7C", target=1)
        assert t.refuses(0, wrong) == f"{spell.name} names no ghost"


@SPELLS
def test_the_gatekeeper_is_never_a_target_of_a_record_that_spares_it(spell):
    """Given Bryn is the Gatekeeper, then Mara's Casts of a rank whose record spares him never
    choose Bryn, and those of a rank that chooses neighbours and does not spare him still may."""
    found = casts(table(spell, s1="gatekeeper"), spell)
    if spell.target in ("neighbour", "ghost_to_player"):
        assert (1 in {cast.target for cast in found}) == (not spell.gatekeeper_immune)
    else:
        assert not spell.gatekeeper_immune


@SPELLS
def test_a_record_that_leaves_bound_ghosts_never_names_the_sealbinders(spell):
    """Given Mara's ghosts were Haunted by the Sealbinder, then a rank whose record leaves bound
    ghosts where they are never names them; a rank naming her ghosts otherwise does."""
    t = table(spell)
    t.give(0, shadow=["7C", "6D"], by=1, bound="sealbinder")
    named = {cast.ghost for cast in casts(t, spell)} & {"7C", "6D"}
    if spell.names_ghost:
        assert bool(named) == (not spell.bound_ghosts_stay)
    else:
        assert not spell.bound_ghosts_stay and not named


def test_the_class_powers_the_records_name_are_the_watchers_sight_and_the_occultists_possess():
    """Given the Grimoire, then only Sight turns to the Watcher's other neighbour and only
    Possess reaches anyone for the Occultist (each tested in test_deathwick_classes.py)."""
    assert [s.name for s in GRIMOIRE if s.watcher_sees_both] == ["Sight"]
    assert [s.name for s in GRIMOIRE if s.occultist_reaches_all] == ["Possess"]
