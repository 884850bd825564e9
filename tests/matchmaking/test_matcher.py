"""The pure matcher (domain/matchmaking.py): given waiting entries, then exactly these tables."""

from __future__ import annotations

from typing import Any

from domain.matchmaking import Entry, Settings, Table, match_entries, window

SETTINGS = Settings(start=2.0, growth=0.5, widest=20.0, bots_after=60.0)


def entry(player: str, mu: float = 25.0, *, waited: float = 0.0, seats: tuple[int, int] = (2, 2),
          rated: bool = True, options: dict[str, Any] | None = None, bots: bool = False,
          game: str = "wick-and-ember") -> Entry:
    """A waiting entry with the defaults most tests share."""
    return Entry(player=player, game=game, seats_min=seats[0], seats_max=seats[1], rated=rated,
                 options=options or {}, bots=bots, mu=mu, waited=waited)


def tables_of(*entries: Entry) -> list[set[str]]:
    """The formed tables as sets of players (seat order aside)."""
    return [set(t.players) for t in match_entries(entries, SETTINGS)]


def test_the_closest_ratings_sit_together() -> None:
    found = tables_of(entry("a", 20.0), entry("b", 30.0), entry("c", 21.0), entry("d", 31.0))
    assert found == [{"a", "c"}, {"b", "d"}]


def test_players_too_far_apart_keep_waiting_until_the_wait_widens_the_window() -> None:
    assert tables_of(entry("a", 20.0), entry("b", 26.0)) == []
    assert tables_of(entry("a", 20.0, waited=8.0), entry("b", 26.0)) == []  # b's window: 2
    assert tables_of(entry("a", 20.0, waited=8.0), entry("b", 26.0, waited=8.0)) == [{"a", "b"}]


def test_the_window_grows_with_the_wait_up_to_its_cap() -> None:
    assert window(entry("a"), SETTINGS) == 2.0
    assert window(entry("a", waited=10.0), SETTINGS) == 7.0
    assert window(entry("a", waited=10_000.0), SETTINGS) == 20.0


def test_a_table_size_is_one_every_player_accepts_and_the_largest_is_formed() -> None:
    found = match_entries([entry("a", seats=(2, 4)), entry("b", seats=(3, 4)),
                           entry("c", seats=(2, 3)), entry("d", seats=(4, 4))], SETTINGS)
    assert [(set(t.players), t.seats) for t in found] == [({"a", "b", "c"}, 3)]


def test_a_range_takes_a_smaller_table_when_a_larger_one_cannot_be_filled() -> None:
    found = match_entries([entry("a", seats=(2, 4)), entry("b", seats=(2, 4))], SETTINGS)
    assert [t.seats for t in found] == [2]


def test_different_options_never_share_a_table() -> None:
    assert tables_of(entry("a", options={"deck": "short"}), entry("b", options={"deck": "long"})) == []
    assert tables_of(entry("a", options={"x": 1, "y": 2}), entry("b", options={"y": 2, "x": 1})) == [{"a", "b"}]


def test_rated_and_casual_players_never_share_a_table() -> None:
    assert tables_of(entry("a", rated=True), entry("b", rated=False)) == []


def test_different_games_never_share_a_table() -> None:
    assert tables_of(entry("a", game="ember"), entry("b", game="deathwick")) == []


def test_a_player_waiting_past_the_limit_who_allows_bots_gets_a_table_filled_with_bots() -> None:
    found = match_entries([entry("a", seats=(3, 5), bots=True, waited=60.0),
                           entry("b", 40.0, bots=True, waited=59.0),
                           entry("c", 10.0, bots=False, waited=600.0)], SETTINGS)
    assert found == [Table(game="wick-and-ember", rated=True, options={}, players=["a"], bots=2)]


def test_players_who_can_sit_together_are_not_given_bots() -> None:
    found = match_entries([entry("a", bots=True, waited=100.0), entry("b", 26.0, bots=True, waited=100.0)], SETTINGS)
    assert [(set(t.players), t.bots) for t in found] == [({"a", "b"}, 0)]


def test_the_same_entries_in_any_order_give_the_same_tables() -> None:
    entries = [entry(f"p{i:02}", 20.0 + (i * 7) % 11, waited=float(i), seats=(2, 3)) for i in range(30)]
    assert match_entries(entries, SETTINGS) == match_entries(list(reversed(entries)), SETTINGS)
    assert match_entries(entries, SETTINGS)  # and some tables form


def test_no_player_is_seated_twice_in_one_pass() -> None:
    entries = [entry(f"p{i:03}", 25.0 + (i % 5), seats=(2, 4), bots=True, waited=float(i)) for i in range(100)]
    seated = [p for t in match_entries(entries, SETTINGS) for p in t.players]
    assert len(seated) == len(set(seated))
