"""The rating fold (projections/ratings.py): openskill's own published values, shared places,
2 and 20 seats, bots holding several seats, and which finished matches are rated."""

from __future__ import annotations

from itertools import pairwise

import pytest

from projections.ratings import (
    MODEL,
    PROVISIONAL_GAMES,
    RatedMatch,
    default_rating,
    fold,
    rated_match,
)


def a_match(places: tuple[int, ...], subjects: tuple[str, ...] | None = None,
            match_id: str = "m1") -> RatedMatch:
    """A rated match of a game with these places, subjects p0, p1... unless named."""
    subjects = subjects or tuple(f"p{seat}" for seat in range(len(places)))
    return RatedMatch(game="wick-and-ember", match_id=match_id, subjects=subjects,
                      placements=places)


def test_the_model_reproduces_the_openskill_readme_example() -> None:
    """openskill.py's README, "Limited Example": two teams of two fresh ratings, the first
    winning, give 26.964294621803063 and 23.035705378196937, sigma 8.177962604389991."""
    r = MODEL.rating
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert (a == b) and (x == y)


def test_the_model_is_the_packages_defaults() -> None:
    """A fresh rating is openskill's: mu 25, sigma 25/3 (its ordinal 0)."""
    fresh = default_rating()
    assert (fresh.mu, fresh.sigma, fresh.games, fresh.provisional) == (25.0, 25 / 3, 0, True)
    assert fresh.ordinal == pytest.approx(0.0)


def test_two_seats_move_as_openskill_moves_two_single_teams() -> None:
    """The fold's 2-seat update is exactly the package's rate of two teams of one."""
    winner, loser = list(fold([a_match((1, 2))]))
    [[w], [lo]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert (winner.mu_after, winner.sigma_after) == (w.mu, w.sigma)
    assert (loser.mu_after, loser.sigma_after) == (lo.mu, lo.sigma)
    assert winner.mu_after > 25 > loser.mu_after
    assert (winner.mu_before, winner.sigma_before, winner.games) == (25.0, 25 / 3, 1)


def test_shared_places_move_equal_ratings_equally() -> None:
    """Ember's shared win: two seats placed first together end where each other ends."""
    first, second, third = list(fold([a_match((1, 1, 3))]))
    assert (first.mu_after, first.sigma_after) == (second.mu_after, second.sigma_after)
    assert first.mu_after > 25 > third.mu_after


def test_twenty_seats_are_ordered_by_place() -> None:
    """Deathwick at 20 seats: one update per seat, the better the place the higher the mu."""
    updates = list(fold([a_match(tuple(range(1, 21)))]))
    assert [u.seat for u in updates] == list(range(20))
    mus = [u.mu_after for u in updates]
    assert mus == sorted(mus, reverse=True)
    assert sum(mu - 25 for mu in mus) == pytest.approx(0, abs=1e-9)


def test_a_bot_holding_several_seats_is_rated_once_at_its_best_place() -> None:
    """Two 'random' seats and one 'careful' seat: bot:random is rated once, at place 1."""
    updates = list(fold([a_match((3, 1, 2), ("bot:random", "bot:random", "bot:careful"))]))
    assert [(u.subject, u.seat, u.place) for u in updates] == [
        ("bot:random", 1, 1), ("bot:careful", 2, 2)]


def test_a_match_of_one_subject_rates_nobody_and_takes_no_number() -> None:
    """Bots of one kind against themselves tell nothing: no update, the next match is 1."""
    alone = a_match((1, 2), ("bot:random", "bot:random"), "m1")
    updates = list(fold([alone, a_match((2, 1), match_id="m2")]))
    assert {(u.sequence, u.match_id) for u in updates} == {(1, "m2")}


def test_the_fold_carries_ratings_games_and_the_provisional_mark() -> None:
    """Each match numbers the next sequence; games count up; provisional ends at the rule."""
    matches = [a_match((1, 2), match_id=f"m{n}") for n in range(PROVISIONAL_GAMES)]
    updates = list(fold(matches))
    p0 = [u for u in updates if u.subject == "p0"]
    assert [u.sequence for u in p0] == list(range(1, PROVISIONAL_GAMES + 1))
    assert [u.games for u in p0] == list(range(1, PROVISIONAL_GAMES + 1))
    assert [u.provisional for u in p0] == [True] * (PROVISIONAL_GAMES - 1) + [False]
    assert all(later.mu_before == earlier.mu_after for earlier, later in pairwise(p0))


def test_the_same_matches_give_the_same_updates() -> None:
    """The fold is deterministic: twice over the same matches, equal updates."""
    matches = [a_match((n % 3 + 1, (n + 1) % 3 + 1, (n + 2) % 3 + 1), match_id=f"m{n}")
               for n in range(30)]
    assert list(fold(matches)) == list(fold(matches))


CREATED = {"type": "match_created", "game": "ember", "seats": 2, "rated": True}


def joined(seat: int, **who: str) -> dict[str, object]:
    """A seat_joined event's data."""
    return {"type": "seat_joined", "seat": seat, "name": f"S{seat}", **who}


def test_a_rated_match_is_read_from_its_events() -> None:
    """A player's seat is its player id, a bot's seat bot:<bot>."""
    events = [CREATED, joined(0, player="p-1"), joined(1, bot="keeper"), {"type": "x"}]
    assert rated_match("m", events, (2, 1)) == RatedMatch(
        game="ember", match_id="m", subjects=("p-1", "bot:keeper"), placements=(2, 1))


@pytest.mark.parametrize("created", [
    {**CREATED, "rated": False}, {k: v for k, v in CREATED.items() if k != "rated"},
    {**CREATED, "practice": True}])
def test_an_unrated_match_is_not_rated(created: dict[str, object]) -> None:
    """No rated flag, a false one or a practice match: nothing to rate."""
    assert rated_match("m", [created, joined(0, bot="random"), joined(1, bot="keeper")],
                       (1, 2)) is None


def test_a_seat_without_a_subject_makes_the_match_unrated() -> None:
    """An anonymous seat (no player, no bot) has nobody to rate: the match is left out."""
    assert rated_match("m", [CREATED, joined(0), joined(1, bot="keeper")], (1, 2)) is None


def test_a_ratings_export_of_another_openskill_is_noted_and_checked_all_the_same() -> None:
    """Same values, another package version: a note, no difference; another parameter: the
    header named."""
    import msgspec

    from projections.ratings import header
    from projections.ratings_check import check

    updates = list(fold([a_match((1, 2))]))
    matches = {"m1": a_match((1, 2))}
    other = msgspec.structs.replace(header("wick-and-ember"), openskill="6.2.99")
    verdict = check(other, enumerate(updates, start=2), matches)
    assert verdict.difference is None and verdict.note is not None and "6.2.99" in verdict.note
    tuned = msgspec.structs.replace(header("wick-and-ember"),
                                    parameters={**header("x").parameters, "beta": 1.0})
    refused = check(tuned, enumerate(updates, start=2), matches).difference
    assert refused is not None and "parameters" in refused.message and refused.line == 1
