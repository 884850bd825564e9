"""Verification: random finished matches verify clean; any tampering is caught and located."""

from __future__ import annotations

import functools
import json
from typing import Any

import msgspec
import pytest

from domain.core.chain import GENESIS, link
from projections.export import MatchExport, decode_export, encode_export
from projections.verify import verify
from tests import sampling
from tests.replay.random_matches import exported, play

PER_CHUNK = 300
BUDGET, FULL = 4, 40  # chunks per run: 1,200 matches; under `make sample-all`, 12,000
ALL_CHECKS = ["format", "rules", "commitment", "chain", "replay", "header", "result"]


def round_trip(indexes: range) -> None:
    """Export, encode, decode and verify the random matches of ``indexes``."""
    for index in indexes:
        report = verify(decode_export(encode_export(exported(play(index)))))
        assert report.ok, (index, report.problem)
        assert report.checked == ALL_CHECKS


@sampling.MARK
@pytest.mark.parametrize("chunk", sampling.samples(BUDGET, FULL))
def test_given_random_finished_matches_when_exported_and_verified_then_every_one_is_clean(chunk):
    """300 random matches a chunk (2 to 6 seats, both decks, client seeds, bots, time-outs,
    concessions) round trip through the export and verify clean (a sampling test:
    tests/sampling.py)."""
    round_trip(sampling.chunk(chunk, PER_CHUNK))


@functools.cache
def document(index: int = 7) -> dict[str, Any]:
    """A random match's export as plain JSON values, ready to tamper with: in format 1's shape
    (each event's data and command an object, which the verifier still reads), so a test edits
    a field as a forger would."""
    doc = msgspec.json.decode(encode_export(exported(play(index))))
    doc["header"]["format_version"] = 1
    for event in doc["events"]:
        event["data"] = msgspec.json.decode(event["data"])
        if "command" in event["metadata"]:
            event["metadata"]["command"] = msgspec.json.decode(event["metadata"]["command"])
    return doc


def tampered(change: Any, index: int = 7, rehash: bool = False) -> MatchExport:
    """The export after ``change`` edits its JSON; ``rehash`` recomputes every hash to cover it."""
    doc = msgspec.json.decode(msgspec.json.encode(document(index)))
    change(doc)
    if rehash:
        renumber_and_rehash(doc)
    return decode_export(msgspec.json.encode(doc))


def renumber_and_rehash(doc: dict[str, Any]) -> None:
    """What a careful forger does: number the events 1..n and rebuild the chain and head hash."""
    previous = GENESIS
    for version, event in enumerate(doc["events"], start=1):
        previous = link(previous, msgspec.json.encode(event["data"]))
        event["version"], event["hash"] = version, previous.hex()
    doc["header"]["head_hash"], doc["header"]["version"] = previous.hex(), len(doc["events"])


def first(doc: dict[str, Any], type: str) -> dict[str, Any]:
    """The first event of a type."""
    return next(event for event in doc["events"] if event["type"] == type)


def change_a_drawn_card(doc: dict[str, Any]) -> None:
    """Change the card of the first draw."""
    data = first(doc, "turn_began")["data"]
    data["drew"] = (data["drew"] + 1) % 16


def test_given_a_card_changed_in_one_event_then_that_event_is_named_with_expected_and_found():
    """Given one drawn card changed, then that very event differs from what the rules draw."""
    version = first(document(), "turn_began")["version"]

    problem = verify(tampered(change_a_drawn_card)).problem

    assert problem is not None and (problem.check, problem.version) == ("replay", version)
    assert '"drew"' in problem.expected and problem.expected != problem.found


def test_given_a_card_changed_and_the_chain_rebuilt_then_the_replay_still_names_that_event():
    """Given a forger who also rebuilds every hash, then re-deciding still finds the draw."""
    version = first(document(), "turn_began")["version"]

    problem = verify(tampered(change_a_drawn_card, rehash=True)).problem

    assert problem is not None and (problem.check, problem.version) == ("replay", version)


def test_given_a_hash_changed_then_the_chain_breaks_at_that_event():
    """Given one stored hash altered (the data untouched), then the chain check names it."""

    def change(doc: dict[str, Any]) -> None:
        doc["events"][29]["hash"] = "00" * 32

    problem = verify(tampered(change)).problem

    assert problem is not None and (problem.check, problem.version) == ("chain", 30)
    assert problem.found == "00" * 32 and problem.expected != problem.found


def test_given_an_event_dropped_then_the_missing_event_is_named():
    """Given event 12 removed, then the walk expects event 12 and finds event 13."""
    problem = verify(tampered(lambda doc: doc["events"].pop(11))).problem

    assert problem is not None and (problem.check, problem.version) == ("chain", 12)
    assert (problem.expected, problem.found) == ("12", "13")


def test_given_an_event_dropped_and_the_rest_renumbered_then_the_replay_names_the_gap():
    """Given a forger who renumbers and rehashes after dropping event 12, then event 12 diverges."""
    problem = verify(tampered(lambda doc: doc["events"].pop(11), rehash=True)).problem

    assert problem is not None and problem.version == 12 and problem.check == "replay"


def swap(doc: dict[str, Any], at: int) -> None:
    """Swap events ``at`` and ``at + 1`` (by version)."""
    events = doc["events"]
    events[at - 1], events[at] = events[at], events[at - 1]


def test_given_two_events_swapped_then_the_first_of_them_is_named():
    """Given events 20 and 21 swapped, then event 20 is where the history goes wrong."""
    problem = verify(tampered(lambda doc: swap(doc, 20))).problem
    forged = verify(tampered(lambda doc: swap(doc, 20), rehash=True)).problem

    assert problem is not None and (problem.check, problem.version) == ("chain", 20)
    assert forged is not None and (forged.check, forged.version) == ("replay", 20)


def seeded_index() -> int:
    """A random match where seat 0 gave a client seed."""
    return next(i for i in range(7, 100) if document(i)["header"]["client_seeds"][0])


def test_given_a_client_seed_changed_in_the_header_then_the_header_is_refused():
    """Given the header's client seed of seat 0 changed, then it disagrees with the seat's join."""
    index = seeded_index()

    def change(doc: dict[str, Any]) -> None:
        doc["header"]["client_seeds"][0] += "!"

    problem = verify(tampered(change, index)).problem

    assert problem is not None and problem.check == "header" and "client seeds" in problem.message


def test_given_a_client_seed_changed_where_it_was_given_then_the_first_deal_diverges():
    """Given the seed changed in the join event and its command, chain rebuilt, then the deal
    dealt from the mixed seed is the first event that differs."""
    index = seeded_index()

    def change(doc: dict[str, Any]) -> None:
        joined = first(doc, "seat_joined")
        joined["data"]["client_seed"] += "!"
        joined["metadata"]["command"]["client_seed"] += "!"
        doc["header"]["client_seeds"][0] += "!"

    problem = verify(tampered(change, index, rehash=True)).problem

    dealt = first(document(index), "round_dealt")["version"]
    assert problem is not None and (problem.check, problem.version) == ("replay", dealt)


def test_given_the_server_seed_changed_then_the_commitment_is_broken():
    """Given another server seed, then sha256 of it is not the commitment."""

    def change(doc: dict[str, Any]) -> None:
        doc["header"]["server_seed"] = "00" * 32

    report = verify(tampered(change))

    assert not report.ok and report.problem.check == "commitment"
    assert report.problem.version is None and "commitment" in report.problem.message


def test_given_the_server_seed_and_its_commitment_changed_then_the_first_event_disagrees():
    """Given a forger who also changes the header's commitment, then event 1 still holds the old."""
    import hashlib

    def change(doc: dict[str, Any]) -> None:
        doc["header"]["server_seed"] = "00" * 32
        doc["header"]["seed_commitment"] = hashlib.sha256(bytes(32)).hexdigest()

    problem = verify(tampered(change)).problem

    assert problem is not None and (problem.check, problem.version) == ("header", 1)


def test_given_the_result_changed_then_the_result_check_fails():
    """Given the winners rewritten, then the replayed outcome disagrees."""

    def change(doc: dict[str, Any]) -> None:
        result = doc["header"]["result"]
        result["winners"] = [
            seat for seat in range(doc["header"]["seats"]) if seat not in result["winners"]
        ][:1]

    problem = verify(tampered(change)).problem

    assert problem is not None and problem.check == "result"
    assert problem.expected != problem.found


def test_given_an_unknown_rules_version_then_the_verifier_refuses_to_re_rule_the_match():
    """Given rules version 2 of a game this release plays at version 1, then a clear refusal."""

    def change(doc: dict[str, Any]) -> None:
        doc["header"]["rules_version"] = "2"

    report = verify(tampered(change))

    assert not report.ok and report.problem.check == "rules"
    assert "rules version 2 is unknown" in report.problem.message
    assert "refusing to re-rule" in report.problem.message


def test_given_an_old_rules_version_still_carried_then_it_is_verified_with_those_rules():
    """Given a rulebook kept for version 1 beside a newer one, then a version 1 match verifies."""
    from domain.games import GAMES

    game = GAMES["wick-and-ember"]
    books = {("wick-and-ember", "1"): game, ("wick-and-ember", "2"): object()}

    assert verify(tampered(lambda doc: None), rulebooks=books).ok  # type: ignore[arg-type]


def test_given_an_export_indented_by_another_tool_then_it_still_verifies():
    """Given the document re-indented (keys kept in order), then its canonical bytes come back."""
    text = json.dumps(document(), indent=2, ensure_ascii=True).encode()

    assert b"\n    " in text and verify(decode_export(text)).ok


def test_given_event_keys_reordered_then_that_event_differs():
    """Given one event's keys written in another order, then its canonical bytes differ."""

    def change(doc: dict[str, Any]) -> None:
        event = first(doc, "turn_began")
        event["data"] = dict(reversed(list(event["data"].items())))

    problem = verify(tampered(change)).problem

    assert problem is not None and problem.check == "replay"
    assert problem.version == first(document(), "turn_began")["version"]


def test_given_an_unknown_export_format_version_then_it_is_refused():
    """Given format version 99, then the verifier says it cannot read it."""

    def change(doc: dict[str, Any]) -> None:
        doc["header"]["format_version"] = 99

    problem = verify(tampered(change)).problem

    assert problem is not None and problem.check == "format" and "99" in problem.message


def bot_index() -> int:
    """A random match in which some seat was played by a server-side bot."""
    return next(i for i in range(100) if any(p["bot"] for p in document(i)["header"]["players"]))


def test_given_a_bot_seat_then_the_header_marks_it_and_the_marker_is_verified():
    """Given a match with a bot seat, then its header names the bot; passing the bot off as a
    person in the header is refused."""
    index = bot_index()
    players = document(index)["header"]["players"]
    assert {p["bot"] for p in players} - {None} == {"random"}
    assert verify(tampered(lambda doc: None, index)).ok

    def hide_the_bot(doc: dict[str, Any]) -> None:
        for player in doc["header"]["players"]:
            player["bot"] = None

    problem = verify(tampered(hide_the_bot, index)).problem

    assert problem is not None and problem.check == "header" and "players" in problem.message
