"""The games Hearthlog serves, by (game id, rules version): one lookup for every caller.

A match is played, replayed and verified under the rules version it was created with, forever;
new matches get the latest version of their game. Every rulebook is checked against the game
contract (domain.core.contract) when it registers, so a broken convention fails at import with a
message naming the game and the fix, not far away in the API or a replay.
"""

from __future__ import annotations

from domain.core.contract import check_rulebook
from domain.core.decider import AnyRulebook

RULEBOOKS: dict[tuple[str, str], AnyRulebook] = {}
GAMES: dict[str, AnyRulebook] = {}  # each game's latest rules version, by game id


class UnknownRules(LookupError):
    """A (game, rules version) this release does not carry."""

    def __init__(self, game_id: str, rules_version: str | None = None) -> None:
        known = versions(game_id)
        if not known:
            message = f"unknown game {game_id!r}"
        else:
            message = (
                f"{game_id} rules version {rules_version} is not carried by this release "
                f"(it carries version {', '.join(known)})"
            )
        super().__init__(message)
        self.message = message


def register(rulebook: AnyRulebook) -> AnyRulebook:
    """Add one (game, rules version) to the catalogue after checking the game contract."""
    key = (rulebook.id, rulebook.rules_version)
    if key in RULEBOOKS:
        raise ValueError(f"{key[0]} rules version {key[1]} is registered twice")
    check_rulebook(rulebook, [book for book in RULEBOOKS.values() if book.id != rulebook.id])
    RULEBOOKS[key] = rulebook
    newest = GAMES.get(rulebook.id)
    if newest is None or int(rulebook.rules_version) > int(newest.rules_version):
        GAMES[rulebook.id] = rulebook
    return rulebook


def unregister(rulebook: AnyRulebook) -> None:
    """Take a rulebook out again (for tests that register a game of their own)."""
    RULEBOOKS.pop((rulebook.id, rulebook.rules_version), None)
    GAMES.pop(rulebook.id, None)
    remaining = [book for book in RULEBOOKS.values() if book.id == rulebook.id]
    if remaining:
        GAMES[rulebook.id] = max(remaining, key=lambda book: int(book.rules_version))


def lookup(game_id: str, rules_version: str) -> AnyRulebook:
    """The rulebook a match of this game and rules version is played with; UnknownRules if none."""
    rulebook = RULEBOOKS.get((game_id, rules_version))
    if rulebook is None:
        raise UnknownRules(game_id, rules_version)
    return rulebook


def latest(game_id: str) -> AnyRulebook:
    """The newest rules version of a game: what a new match is played with."""
    rulebook = GAMES.get(game_id)
    if rulebook is None:
        raise UnknownRules(game_id)
    return rulebook


def versions(game_id: str) -> list[str]:
    """The rules versions carried for a game, oldest first."""
    return sorted((v for g, v in RULEBOOKS if g == game_id), key=int)


def rulebooks() -> list[AnyRulebook]:
    """Every registered (game, rules version), sorted by game id then version."""
    return [RULEBOOKS[key] for key in sorted(RULEBOOKS, key=lambda k: (k[0], int(k[1])))]
