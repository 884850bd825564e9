"""The organizer's actions in the bundle: forfeits, withdrawals, void tables and the end, each
verified, and each misrecorded one refused by name (issue #36, defects 1 and 4)."""

from __future__ import annotations

import hashlib

import pytest

from domain.tournament import (
    Action,
    Entrant,
    Pairing,
    Settings,
    Table,
    TournamentError,
    check_override,
    pair_round,
)
from projections.tournament import decode_line, verify_bundle
from tests.tournament.bundles import OPTIONS, bundle, entrants

SEED = hashlib.sha256(b"actions cup").digest()


def rules(format: str = "swiss", **more) -> Settings:
    """Wick & Ember short matches at 2-seat tables."""
    return Settings(game="wick-and-ember", rules_version="1", options=OPTIONS, table_size=2,
                    format=format, **more)


def first_table(settings: Settings, people: list[Entrant]) -> list[int]:
    """Round 1, table 1's entrants in seat order."""
    return pair_round(settings, SEED, people, []).tables[0].seats


def final(lines: list[bytes]) -> dict[int, dict]:
    """The standings line's rows by entrant."""
    line = decode_line(lines[-1])
    return {row.entrant: row for row in line.standings}


def withdrawn(people: list[Entrant], gone: dict[int, int]) -> list[Entrant]:
    """The entrants with some withdrawn after a round."""
    return [Entrant(number=e.number, name=e.name, bot=e.bot,
                    withdrew_after=gone.get(e.number)) for e in people]


def test_a_forfeit_is_no_game_played_and_verifies():
    """Given round 1, table 1 forfeited by its first seat, then the bundle verifies and the
    standings count neither side's game there as played (the points stay)."""
    settings, people = rules(rounds=3), entrants(6)
    loser, winner = first_table(settings, people)
    actions = [Action(kind="forfeit", round=1, entrant=loser, table=1, reason="no-show")]
    lines = bundle(settings, people, SEED, actions=actions)

    report = verify_bundle(lines)

    assert report.ok, report.problem
    rows = final(lines)
    assert rows[loser].played == 2 and rows[winner].played == 2


def test_a_forfeit_recorded_for_the_winner_is_refused():
    """Given a forfeit recorded for the seat that won the table, then the actions check names
    the table: a forfeit's entrant is placed last."""
    settings, people = rules(rounds=3), entrants(6)
    loser, winner = first_table(settings, people)
    lines = bundle(settings, people, SEED,
                   actions=[Action(kind="forfeit", round=1, entrant=loser, table=1)])
    header = decode_line(lines[0])
    forged = [Action(kind="forfeit", round=1, entrant=winner, table=1)]
    lines[0] = lines[0].replace(b'"entrant":%d' % loser, b'"entrant":%d' % winner)
    assert decode_line(lines[0]).actions == forged and header.actions != forged

    report = verify_bundle(lines)

    assert report.problem is not None and report.problem.check == "actions"
    assert report.problem.message == (f"round 1, table 1: entrant {winner} forfeited but is "
                                      "not placed last")


def test_an_entrant_left_in_after_the_forfeits_that_withdraw_it_is_refused():
    """Given forfeits_to_withdraw 1 and a forfeit in round 1, when the entrant was still paired
    after it (the server ignored its own setting), then the actions check names it."""
    settings, people = rules(rounds=3, forfeits_to_withdraw=1), entrants(6)
    loser, _ = first_table(settings, people)
    lines = bundle(settings, people, SEED,
                   actions=[Action(kind="forfeit", round=1, entrant=loser, table=1)])

    report = verify_bundle(lines)

    assert report.problem is not None and report.problem.message == (
        f"entrant {loser} reached forfeits_to_withdraw in round 1 but was not withdrawn then")


def test_an_entrant_withdrawn_at_its_forfeit_verifies():
    """Given forfeits_to_withdraw 1, a forfeit in round 1 and the server's withdrawal with it,
    then the bundle verifies and the entrant is not paired after round 1."""
    settings = rules(rounds=3, forfeits_to_withdraw=1)
    loser, _ = first_table(settings, entrants(6))
    people = withdrawn(entrants(6), {loser: 1})
    actions = [Action(kind="forfeit", round=1, entrant=loser, table=1),
               Action(kind="withdraw", round=1, by="server", entrant=loser)]
    lines = bundle(settings, people, SEED, actions=actions)

    assert verify_bundle(lines).ok
    assert final(lines)[loser].withdrawn and final(lines)[loser].played == 0


def test_a_swiss_of_three_where_two_withdraw_ends_by_itself_and_verifies():
    """Given a Swiss of 3 where two entrants withdraw after round 1 (issue #36, defect 1), then
    no round 2 can be paired: the bundle ends after round 1, with its standings, and verifies."""
    settings = rules()
    people = withdrawn(entrants(3), {0: 1, 1: 1})
    actions = [Action(kind="withdraw", round=1, by="player", entrant=n) for n in (0, 1)]
    lines = bundle(settings, people, SEED, actions=actions)

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert report.rounds == 1


def test_an_elimination_whose_semi_final_winner_withdraws_ends_and_verifies():
    """Given single elimination of 4 where a semi-final winner withdraws before the final
    (issue #36, defect 1), then the bracket is decided: the bundle ends after round 1 and
    verifies, the finalist left ranked first."""
    settings, people = rules("single-elimination"), entrants(4)
    first = pair_round(settings, SEED, people, [])
    semis = bundle(settings, people, SEED, rounds=1)
    result = decode_line(semis[2]).export.header.result
    winner = first.tables[0].seats[result.placements.index(1)]
    people = withdrawn(people, {winner: 1})
    lines = bundle(settings, people, SEED,
                   actions=[Action(kind="withdraw", round=1, by="player", entrant=winner)])

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert report.rounds == 1
    top = decode_line(lines[-1]).standings[0]
    assert top.entrant != winner and top.entrant in first.tables[1].seats


def test_an_early_end_by_the_organizer_verifies_and_is_named():
    """Given a Swiss of 12 (4 rounds) ended by the organizer after round 2, then the bundle
    verifies and the report says who ended it when; without the end recorded, round 3 is
    missing."""
    settings, people = rules(), entrants(12)
    end = Action(kind="end", round=2, reason="the hall closes")
    lines = bundle(settings, people, SEED, actions=[end], rounds=2)

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert "ended by the organizer after round 2 of 4" in report.checked
    unrecorded = bundle(settings, people, SEED, rounds=2)
    assert verify_bundle(unrecorded).problem.message == (
        "round 3 is missing: the tournament has 4 rounds, the bundle 2, and nothing ended it "
        "early")


def test_a_void_table_has_no_match_and_nobody_at_it_scores():
    """Given round 1, table 2 declared void (it could not start), then the bundle verifies
    with no match for it, and its entrants have no game and no points from round 1."""
    settings, people = rules(rounds=2), entrants(6)
    seats = pair_round(settings, SEED, people, []).tables[1].seats
    lines = bundle(settings, people, SEED,
                   actions=[Action(kind="void", round=1, table=2, by="server",
                                   reason="the table could not start")])

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert report.matches == 5
    assert all(final(lines)[n].played <= 1 for n in seats)


def swapped(pairing: Pairing) -> Pairing:
    """Round 2's first two tables with their second seats exchanged."""
    if pairing.round != 2:
        return pairing
    first, second, *rest = pairing.tables
    return Pairing(round=2, byes=pairing.byes, tables=[
        Table(number=1, seats=[first.seats[0], second.seats[1]]),
        Table(number=2, seats=[second.seats[0], first.seats[1]]), *rest])


def test_a_round_paired_by_the_organizer_verifies_with_its_reason_recorded():
    """Given round 2 of a Swiss paired by hand (two tables' opponents exchanged) and recorded
    as an override with its reason, then the bundle verifies and the report names it; the same
    bundle without the override fails on round 2's pairing."""
    settings, people = rules(rounds=3), entrants(8)
    override = Action(kind="override", round=2, reason="brothers may not meet")
    lines = bundle(settings, people, SEED, rig=swapped, actions=[override])

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert "round 2 paired by the organizer: brothers may not meet" in report.checked
    unrecorded = bundle(settings, people, SEED, rig=swapped)
    assert verify_bundle(unrecorded).problem.message.startswith("round 2, table 1: seats differ")


def test_a_round_by_hand_that_leaves_someone_out_is_refused():
    """Given a round by hand seating entrant 0 twice and leaving entrant 3 out, or a table of
    the wrong size, then check_override says what a round by hand must do."""
    settings, people = rules(rounds=2), entrants(4)
    twice = Pairing(round=2, byes=[], tables=[Table(number=1, seats=[0, 1]),
                                              Table(number=2, seats=[2, 0])])
    with pytest.raises(TournamentError, match="every entrant still in exactly once"):
        check_override(settings, people, twice)
    crowded = Pairing(round=2, byes=[3], tables=[Table(number=1, seats=[0, 1, 2])])
    with pytest.raises(TournamentError, match="table 1 must be numbered 1 and seat 2"):
        check_override(settings, people, crowded)


def test_a_requested_bye_is_worth_a_draw_and_verifies():
    """Given entrant 2 asking for a bye in round 2 of a Swiss of 6, then round 2 does not pair
    it and gives it a half-point bye (a draw: 1/2), its crosstable cell says so, and the bundle
    with the request recorded verifies; without the request recorded, the actions check fails."""
    settings = rules(rounds=3)
    people = [Entrant(number=e.number, name=e.name, byes_requested=[2] if e.number == 2 else [])
              for e in entrants(6)]
    lines = bundle(settings, people, SEED,
                   actions=[Action(kind="bye", round=2, by="player", entrant=2)])

    report = verify_bundle(lines)

    assert report.ok, report.problem
    round_two = next(decode_line(line) for line in lines
                     if b'"kind":"round"' in line and b'"round":2,' in line)
    assert round_two.half_byes == [2] and all(2 not in t.seats for t in round_two.tables)
    unrecorded = bundle(settings, people, SEED)
    assert verify_bundle(unrecorded).problem.message == (
        "the requested byes of the actions and of the entrants differ")


def test_a_late_entry_joins_at_its_round_and_verifies():
    """Given a Swiss of 6 where a seventh entrant joins before round 2 (a late entry, recorded),
    then round 1 pairs the 6 alone, round 2 pairs all 7, the lot of the first 6 is unchanged,
    and the bundle verifies; without the late entry recorded, the actions check fails."""
    settings = rules(rounds=3, late_entry_rounds=2)
    first = entrants(6)
    late = Entrant(number=6, name="Gale", first_round=2)
    lines = bundle(settings, [*first, late], SEED,
                   actions=[Action(kind="late_entry", round=2, by="player", entrant=6)])

    report = verify_bundle(lines)

    assert report.ok, report.problem
    assert pair_round(settings, SEED, first, []) == pair_round(settings, SEED, [*first, late], [])
    rounds = [decode_line(line) for line in lines if b'"kind":"round"' in line]
    assert 6 not in [n for t in rounds[0].tables for n in t.seats] + rounds[0].byes
    assert 6 in [n for t in rounds[1].tables for n in t.seats] + rounds[1].byes
    unrecorded = bundle(settings, [*first, late], SEED)
    assert verify_bundle(unrecorded).problem.message == (
        "the late entries of the actions and of the entrants differ")
