"""Ratings as a pure fold over rated finished matches: openskill's Plackett-Luce, its defaults.

A rating belongs to a subject: a player id, or ``bot:<bot>`` for a server bot's seat. A rated
match gives each distinct subject at the table one ``RatingUpdate`` (before and after), in a
per-game ``sequence`` that fixes the order; the same matches in the same order give the same
updates, byte for byte, which is what lets anyone recompute an export (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal

import msgspec
import openskill
from openskill.models import PlackettLuce

FORMAT: Final = "hearthlog-ratings"
FORMAT_VERSION: Final = 1
MODEL_NAME: Final = "PlackettLuce"
PROVISIONAL_GAMES: Final = 10  # a rating is provisional until its subject has this many games
BOT_PREFIX: Final = "bot:"
MODEL: Final = PlackettLuce()  # the package's defaults, named in every export's header


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """Where a subject stands: its skill estimate, the games behind it and whether provisional."""

    mu: float
    sigma: float
    games: int
    provisional: bool

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) the leaderboard sorts by."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


class RatedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A finished rated match as the fold needs it: who sat where, and the places (1 = first,
    a tie shares a place)."""

    game: str
    match_id: str
    subjects: tuple[str, ...]  # by seat
    placements: tuple[int, ...]  # by seat


class RatingUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """One subject's rating moved by one rated match: an export line and a stored row."""

    game: str
    sequence: int  # the match's place in its game's order, from 1
    match_id: str
    subject: str
    seat: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    ordinal_after: float
    games: int  # the subject's rated matches, this one included
    provisional: bool

    @property
    def after(self) -> Rating:
        """The subject's rating once this update applies."""
        return Rating(mu=self.mu_after, sigma=self.sigma_after, games=self.games,
                      provisional=self.provisional)


class Header(msgspec.Struct, frozen=True, kw_only=True):
    """The first line of a ratings export: the game, the model and every parameter it used."""

    format: Literal["hearthlog-ratings"]
    format_version: int
    game: str
    model: str
    openskill: str  # the package version that computed the values
    parameters: dict[str, Any]
    provisional_games: int


def default_rating() -> Rating:
    """The rating of a subject with no rated match yet."""
    return Rating(mu=MODEL.mu, sigma=MODEL.sigma, games=0, provisional=True)


def bot_subject(bot: str) -> str:
    """The subject a server bot is rated as."""
    return BOT_PREFIX + bot


def header(game: str) -> Header:
    """The export header for a game's ratings."""
    parameters = {"mu": MODEL.mu, "sigma": MODEL.sigma, "beta": MODEL.beta,
                  "kappa": MODEL.kappa, "tau": MODEL.tau, "limit_sigma": MODEL.limit_sigma,
                  "balance": MODEL.balance}
    return Header(format=FORMAT, format_version=FORMAT_VERSION, game=game, model=MODEL_NAME,
                  openskill=openskill.__version__, parameters=parameters,
                  provisional_games=PROVISIONAL_GAMES)


def seated(match: RatedMatch) -> list[tuple[int, str, int]]:
    """(seat, subject, place) of each distinct subject, at its best place: a bot holding several
    seats is rated once; a match with fewer than two distinct subjects rates nobody."""
    best: dict[str, tuple[int, int]] = {}
    for seat, (subject, place) in enumerate(zip(match.subjects, match.placements, strict=True)):
        if subject not in best or place < best[subject][1]:
            best[subject] = (seat, place)
    chosen = sorted((seat, subject, place) for subject, (seat, place) in best.items())
    return chosen if len(chosen) > 1 else []


def rate(match: RatedMatch, sequence: int, current: Mapping[str, Rating]) -> list[RatingUpdate]:
    """The updates one rated match makes, given each subject's rating before it."""
    seats = seated(match)
    if not seats:
        return []
    before = [current.get(subject) or default_rating() for _, subject, _ in seats]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(place) for _, _, place in seats])
    updates = []
    for (seat, subject, place), old, [new] in zip(seats, before, after, strict=True):
        games = old.games + 1
        updates.append(RatingUpdate(
            game=match.game, sequence=sequence, match_id=match.match_id, subject=subject,
            seat=seat, place=place, mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
            sigma_after=new.sigma, ordinal_after=new.ordinal(), games=games,
            provisional=games < PROVISIONAL_GAMES))
    return updates


def fold(matches: Iterable[RatedMatch], current: Mapping[str, Rating] | None = None,
         sequence: int = 0) -> Iterator[RatingUpdate]:
    """Every update of rated matches in order, from ``current`` ratings and the sequence
    number of the last match already rated (a match rating nobody takes no number)."""
    ratings = dict(current or {})
    for match in matches:
        updates = rate(match, sequence + 1, ratings)
        if updates:
            sequence += 1
        for update in updates:
            ratings[update.subject] = update.after
            yield update


def rated_match(match_id: str, events: Sequence[Mapping[str, Any]],
                placements: Sequence[int]) -> RatedMatch | None:
    """The rated match a finished match's events describe (decoded event data, the first the
    match_created), or None when it is not rated or a seat has no subject."""
    created = events[0]
    if created.get("rated") is not True or created.get("practice"):
        return None
    subjects = [subject_of(event) for event in events if event.get("type") == "seat_joined"]
    if len(subjects) != len(placements) or None in subjects:
        return None
    return RatedMatch(game=created["game"], match_id=match_id,
                      subjects=tuple(s for s in subjects if s is not None),
                      placements=tuple(placements))


def subject_of(joined: Mapping[str, Any]) -> str | None:
    """The subject a seat_joined event seated: its player, else its bot, else nobody."""
    if joined.get("player"):
        return str(joined["player"])
    return bot_subject(joined["bot"]) if joined.get("bot") else None
