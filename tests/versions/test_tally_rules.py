"""The test game Tally (tests/tally): its rules, its two versions, its views, log and audit."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.core import match
from domain.core.contract import check_rulebook
from domain.core.decider import Concede
from domain.core.errors import NotYourTurn, RuleViolation, WrongPhase
from domain.core.rng import Rng
from domain.registry import RULEBOOKS, latest, lookup, versions
from tests.domain.table import PracticeTable, play_out, seated
from tests.tally import GAME_V1, GAME_V2
from tests.tally.rules import CARDS, Options, PlayCard, TallyRoundWon, value
from tests.tally.view import secrets

NAMES = ("Ana", "Ben", "Cy")
RNG = Rng(b"tally tests")


def table(game=GAME_V2, players: int = 2) -> PracticeTable:
    """A table of Tally, dealt from the tests' generator."""
    return PracticeTable(game, RNG, Options(), NAMES[:players])


def play_round(t: PracticeTable) -> None:
    """Each seat to act plays its lowest card, until the round is won."""
    rounds = t.count(TallyRoundWon)
    while t.count(TallyRoundWon) == rounds and t.game.to_act(t.state):
        seat = t.game.to_act(t.state)[0]
        t.send(seat, t.legal(seat)[0])


def test_tally_is_registered_under_two_rules_versions_and_new_matches_get_the_latest():
    """Given the session's registry, then Tally 1 and 2 are carried and 2 is the latest."""
    assert versions("tally") == ["1", "2"]
    assert lookup("tally", "1") is GAME_V1 and latest("tally") is GAME_V2
    assert RULEBOOKS[("tally", "2")] is GAME_V2
    for book in (GAME_V1, GAME_V2):
        check_rulebook(book)


def test_given_a_seed_then_the_deal_is_three_cards_each_from_the_seeded_shuffle():
    """Given the same generator, then the same hands; another generator, other hands."""
    dealt = table(players=3).state.hands
    assert [len(hand) for hand in dealt] == [3, 3, 3]
    assert len({card for hand in dealt for card in hand}) == 9 and set().union(*dealt) <= set(CARDS)
    assert table(players=3).state.hands == dealt
    other = PracticeTable(GAME_V2, Rng(b"another seed"), Options(), NAMES).state.hands
    assert other != dealt


def test_given_a_round_then_seats_play_in_seat_order_and_the_highest_card_wins_it():
    """Given two seats, when both play, then the higher card wins the round."""
    t = table()
    assert t.game.to_act(t.state) == (0,)
    assert t.legal(1) == []
    first, second = t.state.hands[0][0], t.state.hands[1][0]
    t.send(0, PlayCard(card=first))
    t.send(1, PlayCard(card=second))
    won = t.last(TallyRoundWon)
    assert won.card == max(first, second, key=value)
    assert won.seat == (0 if value(first) > value(second) else 1)


def test_given_a_card_not_held_or_a_seat_out_of_turn_then_it_is_refused_and_nothing_changes():
    """Given seat 0 to act, then seat 1 may not play, and seat 0 may not play another's card."""
    t = table()
    assert "not your turn" in t.refuses(1, PlayCard(card=t.state.hands[1][0]), NotYourTurn)
    assert "do not hold" in t.refuses(0, PlayCard(card=t.state.hands[1][0]))


def test_version_2_changes_the_scoring_so_the_same_seed_and_commands_give_other_events():
    """Given the same deal and the same plays, then version 1 scores a round 1 point and
    version 2 the winning card's number, and the events differ."""
    one, two = table(GAME_V1), table(GAME_V2)
    for _ in range(3):
        play_round(one)
        play_round(two)
    assert [w.points for w in one.of(TallyRoundWon)] == [1, 1, 1]
    assert [w.points for w in two.of(TallyRoundWon)] == [value(w.card) for w in two.of(TallyRoundWon)]
    assert [w.card for w in one.of(TallyRoundWon)] == [w.card for w in two.of(TallyRoundWon)]
    assert msgspec.json.encode(one.events) != msgspec.json.encode(two.events)
    assert GAME_V1.outcome(one.state).scores != GAME_V2.outcome(two.state).scores


def test_given_three_rounds_then_the_match_ends_and_most_points_wins():
    """Given every card played, then the match is over, nobody is to act, the leader won."""
    t = table(players=3)
    for _ in range(3):
        play_round(t)
    outcome = t.game.outcome(t.state)
    assert outcome is not None and t.game.to_act(t.state) == ()
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    assert "The tally is over" in t.lines()[-1]
    with pytest.raises(WrongPhase):
        t.game.decide(t.state, 0, Concede(), RNG)


def test_given_a_concession_then_the_seat_plays_no_more_and_the_last_seat_in_wins_at_once():
    """Given three seats, when two concede, then the third wins at once."""
    t = table(players=3)
    t.concede(0)
    assert t.game.to_act(t.state) == (1,)
    assert "not in this match" in t.refuses(0, Concede(), NotYourTurn)
    t.concede(2)
    assert t.game.outcome(t.state).winners == (1,)


def test_given_a_view_then_a_seat_sees_its_own_hand_and_legal_actions_and_nobody_elses():
    """Given seat 0, then its view holds its hand; seat 1 and a spectator see only sizes."""
    t = table()
    mine, theirs, spectator = t.view(0), t.view(1), t.view(None)
    assert mine.hand == list(t.state.hands[0]) and mine.legal_actions == t.legal(0)
    assert theirs.legal_actions == [] and spectator.hand == []
    assert msgspec.to_builtins(t.view(0))["type"] == "tally_view"
    assert [p.hand_size for p in spectator.players] == [3, 3]


def test_given_the_deal_then_each_seat_gets_a_private_line_with_its_hand_and_nobody_elses():
    """Given the deal, then each seat's private line names its own cards only."""
    t = table()
    for seat in (0, 1):
        [line] = t.private_lines(seat)
        assert line == f"You were dealt {', '.join(t.state.hands[seat])}."
    assert not any("dealt T" in line for line in t.lines(None))


def test_random_matches_show_no_reader_a_card_it_may_not_know():
    """Given random play, then no view or readable line names a card the audit calls secret."""
    for index in range(20):
        chooser, t = random.Random(index), table(players=2 + index % 3)
        while t.game.to_act(t.state):
            for seat in (None, *range(len(t.state.names))):
                shown = msgspec.json.encode(t.view(seat)).decode() + " ".join(t.lines(seat))
                assert not [card for card in secrets(t.state, seat) if card in shown]
            seat = t.game.to_act(t.state)[0]
            t.send(seat, chooser.choice(t.legal(seat)))


def test_the_audit_catches_a_view_that_shows_another_seats_hand():
    """Given seat 1's hand shown to seat 0, then the audit names a secret card in the view."""
    t = table()
    leaked = msgspec.json.encode(msgspec.structs.replace(t.view(0), hand=list(t.state.hands[1])))
    assert [card for card in secrets(t.state, 0) if card in leaked.decode()]


@pytest.mark.parametrize("game", [GAME_V1, GAME_V2], ids=["v1", "v2"])
def test_whole_matches_through_the_match_wrapper_are_deterministic(game):
    """Given the wrapper and a seed, when a match is played twice alike, then the same bytes."""
    def played() -> list:
        """One whole match of random legal commands, from the same seed and chooser."""
        return play_out(game, seated(game, NAMES[:2], {}, b"seed"), random.Random(3), b"seed")

    first = played()
    assert msgspec.json.encode(first) == msgspec.json.encode(played())
    assert match.status(game, match.fold(game, first)) == "finished"


def test_given_a_bad_seat_count_then_it_is_refused():
    """Tally is for 2 to 4 seats."""
    with pytest.raises(RuleViolation, match="2 to 4"):
        GAME_V2.check_options(Options(), 5, False)
