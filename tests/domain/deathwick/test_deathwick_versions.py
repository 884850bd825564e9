"""Rules versions 1 and 2 (docs/rules/deathwick.md, "Rules versions"): version 2 follows the
rulebook where version 1 departed from it (issue 31: DH17, DH18, DH19), and version 1 still
plays, folds and verifies as it was played. Each departure is shown on the issue's own practice
deal, under both versions."""

from __future__ import annotations

import functools

import pytest
from deathwick_support import Table, card, codes

from domain.core import codec
from domain.deathwick import GAME, GAME_V1, GAME_V2
from domain.deathwick.commands import Banish, CastCard, ChooseClass, Haunt, Panic
from domain.deathwick.events import CircleFormed, GhostBanished, PanicFlipped, SeatFallen
from domain.deathwick.siphon import Way, siphons
from domain.deathwick.versions import V1, V2
from domain.registry import latest, lookup, versions
from projections.verify import verify
from tests.games import golden

FACES = [f"{rank}{suit}" for rank in "JQK" for suit in "SHCD"] * 2  # two decks' 24 face cards


def test_deathwick_is_registered_under_versions_1_and_2_and_new_matches_get_2():
    """Given the registry, then Deathwick 1 and 2 are carried, and a new match gets 2."""
    assert versions("deathwick") == ["1", "2"]
    assert lookup("deathwick", "1") is GAME_V1 and latest("deathwick") is GAME_V2 is GAME


def test_the_circle_records_its_rules_version_and_version_1_writes_it_as_it_always_did():
    """Given each version's setup, then CircleFormed carries the version and the circle keeps
    it; version 1's bytes name no version, as every stored version 1 match was written."""
    one, two = Table(2, game=GAME_V1), Table(2, game=GAME_V2)
    assert one.state.rules_version == "1" and two.state.rules_version == "2"
    assert b"rules_version" not in codec.encode(one.of(CircleFormed)[0])
    assert b'"rules_version":"2"' in codec.encode(two.of(CircleFormed)[0])


def dark_panic(game) -> Table:
    """Issue 31, repro 1: four seats, classes off, the dark ritual, Dell first. Dell's BOO!
    burns Mara's twenty face cards to a 7 of clubs ghost; Mara's Haunting and Draw leave her
    Candle the 7 of hearts alone, and she Panics on the 7 of clubs: the flip beats it on a rank
    match."""
    t = Table(4, game=game, ritual="dark", first=3,
              candles=(["2H", "3H", "4H", *FACES[:20], "7C", "2D", "3D", "7H"],
                       ["AC", "2C", "3C", "8S"], ["4S", "6S", "9S", "8H"],
                       ["JOKER", "AS", "AH", "2S"]))
    t.send(3, CastCard(card="JOKER"))
    assert t.to_act() == (0,) and t.shadow(0) == ["7C"] and codes(t.player(0).candle) == ["7H"]
    t.send(0, Panic(ghost="7C"))
    return t


def test_d4_dh17_dark_ritual_a_panic_flip_that_empties_the_candle_consumes_before_a_siphon():
    """D4, DH17 (version 2): given the dark ritual and Mara's last Candle card, when her Panic
    flips it, then she is Consumed at that moment: the ghost it beat is not Siphoned back into
    her Candle, and Bryn's turn begins."""
    t = dark_panic(GAME_V2)
    assert t.last(PanicFlipped).beaten and not t.of(GhostBanished)
    assert t.last(SeatFallen).seat == 0 and t.last(SeatFallen).fate == "consumed"
    assert not t.player(0).alive and t.to_act() == (1,)


def test_version_1_checked_the_dark_ritual_after_the_panic_so_the_siphon_saved_mara():
    """Version 1 as played: the same Panic Siphons the 7 of clubs back into Mara's emptied
    Candle before the check, and she lives on."""
    t = dark_panic(GAME_V1)
    assert t.last(GhostBanished).siphoned and codes(t.player(0).candle) == ["7C"]
    assert t.player(0).alive and not t.of(SeatFallen)


def warlock_banish(game) -> Table:
    """Issue 31, repro 2: two seats; Mara, the Warlock, Haunts Bryn with the king of diamonds,
    Bryn allows, then Banishes it with the queen of diamonds."""
    t = Table(2, game=game, candles=(["KD", "2C", "3C"], ["QD", "4C", "6C"]),
              offers=[["warlock", "hoarder", "hex"], ["hoarder", "hex", "watcher"]])
    t.send(0, ChooseClass(name="warlock"))
    t.send(1, ChooseClass(name="hoarder"))
    t.send(0, Haunt(card="KD", target=1))
    t.allow(1)
    t.send(1, Banish(card="QD", ghost="KD"))
    return t


def test_faq_dh18_a_face_ghost_banished_by_another_face_of_its_suit_is_not_siphoned():
    """The FAQ and the tie rule, DH18 (version 2): given the Warlock's king of diamonds ghost in
    Bryn's Shadow, when Bryn Banishes it with the queen of diamonds (neither a 10 nor the
    matching face card Cast), then it is destroyed to The Dark, not Siphoned."""
    t = warlock_banish(GAME_V2)
    assert not t.last(GhostBanished).siphoned and t.shadow(1) == []
    assert codes(t.state.dark)[:2] == ["QD", "KD"] and "KD" not in codes(t.player(1).candle)


def test_version_1_siphoned_the_warlocks_king_banished_by_a_queen_of_its_suit():
    """Version 1 as played: the same Banish Siphons the king to the bottom of Bryn's Candle."""
    t = warlock_banish(GAME_V1)
    assert t.last(GhostBanished).siphoned and codes(t.player(1).candle)[-1] == "KD"


@pytest.mark.parametrize(("way", "played", "ghost", "in_v1", "in_v2"), [
    ("banish", "QD", "KD", True, False),  # the repro: a face card of its suit
    ("banish", "KS", "KH", True, False),  # a rank match, suits apart
    ("purge", "KH", "KC", True, False),  # a king Purge of another suit
    ("panic", "QD", "KD", False, False),  # version 1 disagreed with its own Banish here
    ("banish", "KD", "KD", True, False),  # its twin Banished, not Cast: in doubt, no heal
    ("panic", "KD", "KD", True, False),
    ("panic", "JOKER", "KD", True, False),  # the joker's Siphon meets the face rule: doubt
    ("cleanse", "7D", "KD", True, False),  # a 7 is neither a 10 nor the matching face card
    ("banish", "10D", "KD", True, True),  # "with a 10", suit matching
    ("purge", "KD", "KD", True, True),  # "by Casting the matching face card", suit matching
    ("banish", "10H", "KD", False, False),
    ("banish", "10S", "KS", False, False),  # spades never
    ("banish", "7H", "7C", True, True),  # number ghosts: as before
    ("cleanse", "7H", "3H", True, True),
    ("purge", "KH", "7H", False, False),
    ("panic", "JOKER", "9C", True, True),
    ("panic", "7H", "7C", True, True),
])
def test_faq_dh18_one_siphon_rule_for_banish_cleanse_purge_and_panic(way: Way, played: str,
                                                                      ghost: str, in_v1: bool,
                                                                      in_v2: bool):
    """The FAQ's Siphon and the tie rule, DH18: given a ghost and the card that removes it one
    way, then siphon.siphons answers as each version rules (version 2: a face ghost only by a
    10 of its suit Banishing it, or the king of its suit Cast on a king ghost)."""
    assert siphons(V1, way, card(played), card(ghost)) is in_v1
    assert siphons(V2, way, card(played), card(ghost)) is in_v2


def mirrored_clown(game) -> Table:
    """Issue 31, repro 3: three seats; Mara, the Clown, Haunts Bryn with the 4 of hearts and
    Bryn allows; Bryn then Casts the jack of diamonds (Mirror) on Cato, who allows."""
    offers = [["clown", "hoarder", "hex"], ["hoarder", "hex", "watcher"],
              ["hoarder", "hex", "watcher"]]
    t = Table(3, game=game, candles=(["4H", "2C", "3C"], ["JD", "4C", "6C"]), offers=offers)
    for seat, name in enumerate(("clown", "hoarder", "hoarder")):
        t.send(seat, ChooseClass(name=name))
    t.send(0, Haunt(card="4H", target=1))
    t.allow(1)
    t.send(1, CastCard(card="JD", target=2))
    t.allow(2)
    return t


def test_d3_dh6_dh19_a_mirror_leaves_the_clowns_ghosts_in_their_shadow():
    """D3 with DH6, DH19 (version 2): given the Clown's 4 of hearts ghost in Bryn's Shadow,
    when Bryn's Mirror swaps Shadows with Cato, then the ghost stays with Bryn: the Clown's
    ghosts leave only by a face-card Banish, a Purge or Cleanse."""
    t = mirrored_clown(GAME_V2)
    assert t.shadow(1) == ["4H"] and t.shadow(2) == []
    assert t.player(1).shadow[0].bound == "clown"


def test_version_1_mirrors_carried_the_clowns_ghosts_and_its_histories_fold_as_played():
    """Version 1 as played: the same Mirror carried the 4 of hearts to Cato; and its events,
    folded again by the latest rulebook's evolve, still put it there: the fold reads the
    version the circle recorded, not the newest."""
    t = mirrored_clown(GAME_V1)
    assert t.shadow(1) == [] and t.shadow(2) == ["4H"]
    refolded = functools.reduce(GAME_V2.evolve, t.events, GAME_V2.initial)
    assert refolded == t.state and refolded.rules_version == "1"


def test_a_version_1_golden_record_verifies_and_re_ruled_as_version_2_diverges_at_once():
    """Given the committed version 1 records, then each verifies under version 1; re-run as if
    it were version 2, each fails at its first game event, where the circle records its
    version."""
    documents = golden.records(golden.record_path(GAME_V1))
    assert all(verify(document).ok for document in documents)
    for document in documents:
        wrong = verify(document, {("deathwick", "1"): GAME_V2})
        assert not wrong.ok and wrong.problem.check == "replay"
        assert "circle_formed" in (wrong.problem.expected or "")


def test_version_2_card_texts_say_what_changed():
    """Given the Grimoire served with each version, then version 2's Cleanse, Mirror and Purge
    say DH18 and DH19, and version 1's are as they were."""
    one = {text.name: text.text for text in GAME_V1.cards}
    two = {text.name: text.text for text in GAME_V2.cards}
    assert [name for name in one if one[name] != two[name]] == ["Cleanse", "Mirror", "Purge"]
    assert "the Clown's ghosts stay" in two["Mirror"] and "Clown" not in one["Mirror"]
    assert "king of your king's suit" in two["Purge"] and "face card" in two["Cleanse"]
