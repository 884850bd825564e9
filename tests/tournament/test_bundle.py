"""A tournament bundle built from real matches verifies, and each tampering fails, named."""

from __future__ import annotations

import hashlib
import json

import pytest

from domain.tournament import Pairing, RoundRecord, Settings, Table, TableResult, standings
from projections.tournament import decode_line, encode_standings, verify_bundle
from projections.tournament.bundle import MatchLine, RoundLine
from projections.tournament.checks import as_pairing
from tests.tournament.bundles import OPTIONS, bundle, entrants

SEED = hashlib.sha256(b"bundle cup").digest()


def rules(format: str, table_size: int = 2, **more) -> Settings:
    """Wick & Ember short matches in a format."""
    return Settings(game="wick-and-ember", rules_version="1", options=OPTIONS,
                    table_size=table_size, format=format, **more)


@pytest.fixture(scope="module")
def swiss() -> list[bytes]:
    """A Swiss tournament of 12 entrants (3 of them bots) over 4 rounds, as its bundle."""
    return bundle(rules("swiss"), entrants(12, bots=3), SEED)


def edited(line: bytes, change) -> bytes:
    """A round or standings line changed as JSON."""
    value = json.loads(line)
    change(value)
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


def where(lines: list[bytes], kind: str, round_number: int, table: int | None = None) -> int:
    """The index of a round line (or of a match line, given its table)."""
    for i, line in enumerate(lines):
        value = json.loads(line)
        if value["kind"] == kind and value.get("round") == round_number and (
                table is None or value["table"] == table):
            return i
    raise AssertionError(f"no {kind} line for round {round_number}")


def problem(lines) -> str:
    """The verifier's message for a bundle that must fail."""
    report = verify_bundle(iter(lines))
    assert not report.ok and report.problem is not None
    return report.problem.message


def test_an_honest_swiss_bundle_verifies_line_by_line(swiss):
    """Given the whole bundle of a 12-entrant Swiss, when verified from an iterator, then it
    passes every check over 4 rounds and 24 matches."""
    report = verify_bundle(iter(swiss))

    assert report.ok, report.problem
    assert (report.rounds, report.matches) == (4, 24)
    assert report.checked == ["format", "commitment", "settings", "matches", "pairing",
                              "actions", "standings"]


@pytest.mark.parametrize(
    ("settings", "count"),
    [(rules("round-robin", table_size=3), 7), (rules("single-elimination"), 5),
     (rules("single-elimination", seeding="standing"), 6), (rules("round-robin"), 5),
     (rules("swiss", table_size=3, rounds=3), 8)],
)
def test_honest_bundles_of_every_format_verify(settings, count):
    """Given a round robin at 3-seat tables, elimination brackets, a 2-seat round robin and a
    Swiss at 3-seat tables (two byes a round), each played in full, then their bundles verify."""
    report = verify_bundle(bundle(settings, entrants(count, bots=1), SEED))
    assert report.ok, report.problem


def test_a_tampered_pairing_names_the_round_table_and_seats(swiss):
    """Given round 2's first table with its seats swapped in the round line, then verification
    stops there: expected the re-derived order, found the swapped one."""
    lines = list(swiss)
    i = where(lines, "round", 2)
    seats = json.loads(lines[i])["tables"][0]["seats"]
    lines[i] = edited(lines[i], lambda v: v["tables"][0].__setitem__("seats", seats[::-1]))

    assert problem(lines) == (f"round 2, table 1: seats differ: expected {seats}, found "
                              f"{seats[::-1]}")


def test_a_pairing_the_server_changed_and_played_still_fails():
    """Given a server that swapped two entrants between tables in round 3 and had the matches
    played that way, then every match verifies but the pairing does not."""

    def rig(pairing: Pairing) -> Pairing:
        """Round 3 with the second seats of tables 1 and 2 exchanged."""
        if pairing.round != 3:
            return pairing
        first, second = pairing.tables[0].seats, pairing.tables[1].seats
        tables = [Table(number=1, seats=[first[0], second[1]]),
                  Table(number=2, seats=[second[0], first[1]]), *pairing.tables[2:]]
        return Pairing(round=3, tables=tables, byes=pairing.byes)

    lines = bundle(rules("swiss"), entrants(8), SEED, rig=rig)
    honest = bundle(rules("swiss"), entrants(8), SEED)
    expected = json.loads(honest[where(honest, "round", 3)])["tables"][0]["seats"]
    found = json.loads(lines[where(lines, "round", 3)])["tables"][0]["seats"]

    assert problem(lines) == f"round 3, table 1: seats differ: expected {expected}, found {found}"


def test_a_tampered_result_names_the_round_and_table(swiss):
    """Given round 1 table 2's result reversed in its export's header, then verification stops
    at that match: its result is not what its replay gives."""
    lines = list(swiss)
    i = where(lines, "match", 1, table=2)
    placements = decode_line(lines[i]).export.header.result.placements
    old = b'"placements":' + json.dumps(placements, separators=(",", ":")).encode()
    new = b'"placements":' + json.dumps(placements[::-1], separators=(",", ":")).encode()
    lines[i] = lines[i].replace(old, new, 1)

    message = problem(lines)

    assert message.startswith("round 1, table 2: match ")
    assert message.endswith("does not verify: result: the header does not match the replay")


def test_a_removed_match_names_the_round_and_table(swiss):
    """Given round 2 table 3's match line removed, then verification names the missing match."""
    lines = list(swiss)
    i = where(lines, "match", 2, table=3)
    match_id = decode_line(lines[i]).export.header.match_id
    del lines[i]

    assert problem(lines) == (f"round 2, table 3: no match in the bundle (match {match_id} is "
                              "missing)")


def test_matches_swapped_between_tables_fail_on_the_match_id(swiss):
    """Given round 1's first two match lines exchanged (table numbers kept), then the first
    names the match id it should carry."""
    lines = list(swiss)
    a, b = where(lines, "match", 1, table=1), where(lines, "match", 1, table=2)
    first, second = decode_line(lines[a]), decode_line(lines[b])
    lines[a] = lines[b].replace(b'"table":2', b'"table":1', 1)

    assert problem(lines) == (f'round 1, table 1: match id differs: expected '
                              f'"{first.export.header.match_id}", found '
                              f'"{second.export.header.match_id}"')


def test_an_entrant_renamed_in_the_header_fails_at_its_first_table(swiss):
    """Given entrant 0 renamed in the header, then its first match's players differ."""
    lines = list(swiss)
    lines[0] = edited(lines[0], lambda v: v["entrants"][0].__setitem__("name", "Mallory"))

    message = problem(lines)

    assert "players in seat order differs" in message and '"Mallory"' in message
    assert message.startswith("round 1, table ")


def test_a_tampered_standing_names_the_rank(swiss):
    """Given the standings line with ranks 1 and 2 exchanged, then verification names rank 1
    and the first field that differs."""
    lines = list(swiss)

    def swap(v):
        """Ranks 1 and 2 exchanged, rank numbers kept."""
        top = v["standings"]
        top[0], top[1] = {**top[1], "rank": 1}, {**top[0], "rank": 2}

    lines[-1] = edited(lines[-1], swap)

    first, second = (json.loads(swiss[-1])["standings"][i]["entrant"] for i in (0, 1))
    assert problem(lines) == (f"standings, rank 1: entrant differs: expected {first}, "
                              f"found {second}")


def test_a_seed_that_is_not_the_committed_one_fails_first(swiss):
    """Given another seed in the header, then the commitment check fails before any match."""
    lines = list(swiss)
    lines[0] = edited(lines[0], lambda v: v.__setitem__("seed", "00" * 32))

    report = verify_bundle(lines)

    assert report.problem.check == "commitment" and report.checked == ["format"]
    assert report.problem.message == "sha256(tournament seed) does not match the seed commitment"


def test_a_missing_last_round_is_named(swiss):
    """Given the bundle cut after round 3 (round 4's line and matches gone, the standings line
    kept), then verification says round 4 is missing before it looks at the standings."""
    cut = where(list(swiss), "round", 4)
    lines = [*swiss[:cut], swiss[-1]]

    assert problem(lines) == ("round 4 is missing: the tournament has 4 rounds, the bundle 3, "
                              "and nothing ended it early")


def test_a_line_that_is_not_a_bundle_line_is_named():
    """Given a bundle whose first line is a match export alone, then verification names line 1."""
    message = problem([b'{"kind":"party"}\n'])
    assert message.startswith("line 1 is not a tournament bundle line")


def test_a_bundle_cut_short_with_its_rounds_setting_lowered_is_refused(swiss):
    """Given the last round dropped, settings.rounds lowered to 3 and the standings recomputed
    for 3 rounds (issue #36, defect 2), then the id no longer follows from the settings."""
    cut = where(list(swiss), "round", 4)
    lines = list(swiss[:cut])
    lines[0] = edited(lines[0], lambda v: v["settings"].__setitem__("rounds", 3))
    header = decode_line(lines[0])
    rounds = [decode_line(line) for line in lines[1:]]
    history = tournament_history(rounds)
    table = standings(header.settings, SEED, header.entrants, history)
    lines.append(encode_standings(3, table))

    report = verify_bundle(lines)

    assert report.problem is not None and report.problem.check == "settings"
    assert "the settings (or the name) are not the ones it was created with" in (
        report.problem.message)


@pytest.mark.parametrize("field", [("name", "Summer Cup"), ("turn_seconds", 30)])
def test_a_name_or_turn_clock_changed_in_the_header_is_refused(swiss, field):
    """Given the tournament's name, or its settings' turn clock, changed in the header, then
    the settings check fails (issue #36, defect 2: they were unchecked)."""
    key, value = field
    lines = list(swiss)
    if key == "name":
        lines[0] = edited(lines[0], lambda v: v.__setitem__(key, value))
    else:
        lines[0] = edited(lines[0], lambda v: v["settings"].__setitem__(key, value))

    assert verify_bundle(lines).problem.check == "settings"


def tournament_history(lines) -> list[RoundRecord]:
    """The rounds of decoded round and match lines, with their results."""
    records: list[RoundRecord] = []
    rounds = [line for line in lines if isinstance(line, RoundLine)]
    for round_line in rounds:
        results = [TableResult(round=m.round, table=m.table,
                               placements=m.export.header.result.placements)
                   for m in lines if isinstance(m, MatchLine) and m.round == round_line.round]
        records.append(RoundRecord(pairing=as_pairing(round_line), results=results))
    return records
