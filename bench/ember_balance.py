"""Ember's balance by simulation (E10; docs/rules/ember.md, "Balance"). Run by hand:

    .venv/bin/python -m bench.ember_balance [--games 1000] [--jobs 2] [--seed 0] [--rules 2]
        [--seats 2 3 4 5] [--no-mixed] [--skip-first-draw]

For each table size (2 to 5 players) it plays ``--games`` matches with the keeper bot in every
seat (the default options: the Call at 30 VP, the turn cap at round 30) and reports how each
ended, each seat position's wins (a shared win counts for each sharer) and the share of matches
in which each creature was conjured; then (unless ``--no-mixed``) the same number of matches
with one keeper among random bots (its seat rotating), and the keeper's win rate. Only the seat
the rules wait on acts, as the server's bots do. ``--rules`` picks the rules version (default:
the latest); ``--skip-first-draw`` plays the EH15 variant (the option first_player_skips_draw).
Every match is seeded by its number and ``--seed`` (seed 0 keeps the seeds of the runs before
the option existed), so a run is reproducible.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections import Counter
from dataclasses import dataclass, field

from domain.core.bots import random_bot
from domain.core.decider import AnyRulebook
from domain.core.rng import Rng
from domain.ember import GAME, VERSIONS
from domain.ember.bot import keeper
from domain.ember.cards import CARDS, CREATURES
from domain.ember.events import ClosingBegan, Conjured
from domain.ember.options import Options

NAMES = ("Ash", "Bryn", "Cato", "Dell", "Esme")
MAX_COMMANDS = 20000


@dataclass
class Tally:
    """What a batch of matches showed."""

    games: int = 0
    capped: int = 0
    called: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    conjured: Counter[str] = field(default_factory=Counter)
    keeper_wins: int = 0
    rounds: int = 0

    def add(self, other: Tally) -> None:
        """Fold another tally into this one."""
        self.games += other.games
        self.capped += other.capped
        self.called += other.called
        self.wins.update(other.wins)
        self.conjured.update(other.conjured)
        self.keeper_wins += other.keeper_wins
        self.rounds += other.rounds


@dataclass(frozen=True)
class Setting:
    """What every match of a run shares: its rules version, options and seed."""

    rules: str = GAME.rules_version
    seed: int = 0
    skip_first_draw: bool = False

    @property
    def game(self) -> AnyRulebook:
        """The rulebook of the run's rules version."""
        return next(book for book in VERSIONS if book.rules_version == self.rules)


def play(seats: int, index: int, keeper_seat: int | None, setting: Setting = Setting()) -> Tally:
    """One match: every seat the keeper (``keeper_seat`` None), or one keeper among random bots."""
    label = f"ember balance {seats} {index} {keeper_seat}"
    rng = Rng((label if setting.seed == 0 else f"{label} seed {setting.seed}").encode())
    game = setting.game
    options = Options(first_player_skips_draw=setting.skip_first_draw)
    state = None
    for event in game.setup(options, NAMES[:seats], rng):
        state = game.evolve(state, event)
    tally, conjured = Tally(games=1), set()
    for version in range(MAX_COMMANDS):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        bot = keeper if keeper_seat in (None, seat) else random_bot
        actions = game.legal_actions(state, seat)
        action = bot(game.observe(state, seat), actions, rng.stream("bot", version, seat))
        for event in game.decide(state, seat, action, rng):
            if isinstance(event, Conjured) and CARDS[event.card].kind == "creature":
                conjured.add(event.card)
            if isinstance(event, ClosingBegan):
                tally.capped += event.capped
                tally.called += not event.capped
            state = game.evolve(state, event)
    outcome = game.outcome(state)
    assert outcome is not None, f"match {seats}/{index} did not end"
    tally.wins.update(outcome.winners)
    tally.conjured.update(conjured)
    tally.keeper_wins = int(keeper_seat in outcome.winners)
    tally.rounds = state.board.round
    return tally


def _job(args: tuple[int, int, bool, Setting]) -> Tally:
    """One match of a batch (for the process pool)."""
    seats, index, mixed, setting = args
    return play(seats, index, index % seats if mixed else None, setting)


def batch(seats: int, games: int, mixed: bool, jobs: int, setting: Setting = Setting()) -> Tally:
    """Many matches at one table size."""
    total = Tally()
    work = [(seats, index, mixed, setting) for index in range(games)]
    with multiprocessing.Pool(jobs) as pool:
        for tally in pool.imap_unordered(_job, work, chunksize=8):
            total.add(tally)
    return total


def report(seats: int, alone: Tally, mixed: Tally | None) -> list[str]:
    """The lines of one table size's report."""
    wins = [alone.wins[s] for s in range(seats)]
    rare = sorted(CREATURES, key=lambda c: alone.conjured[c])[:3]
    least = ", ".join(f"{CARDS[c].name} {100 * alone.conjured[c] / alone.games:.1f}%"
                      for c in rare)
    ratio = max(wins) / max(1, min(wins))
    among = "not played" if mixed is None else (
        f"{100 * mixed.keeper_wins / mixed.games:.1f}% (1 in {seats}: {100 / seats:.1f}%)")
    return [
        f"| {seats} | {alone.games} | {alone.called} | {alone.capped} | "
        f"{alone.rounds / alone.games:.1f} | {' / '.join(map(str, wins))} | {ratio:.2f} | "
        f"{least} | {among} |"
    ]


def main() -> None:
    """Run every table size asked for and print the report as a markdown table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=GAME.rules_version,
                        choices=[book.rules_version for book in VERSIONS])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--no-mixed", action="store_true",
                        help="skip the matches of one keeper among random bots")
    parser.add_argument("--skip-first-draw", action="store_true",
                        help="the EH15 variant: no draw step on the first turn of all")
    args = parser.parse_args()
    setting = Setting(rules=args.rules, seed=args.seed, skip_first_draw=args.skip_first_draw)
    print(f"rules version {setting.rules}, seed {setting.seed}, {args.games} games per table"
          + (", EH15 variant" if setting.skip_first_draw else ""))
    print()
    print("| players | games | ended by the Call | by the turn cap | rounds (mean) | wins by "
          "seat | most / fewest | least conjured creatures | keeper's win rate among random |")
    print("|---|---|---|---|---|---|---|---|---|")
    misses = []
    for seats in args.seats:
        alone = batch(seats, args.games, False, args.jobs, setting)
        mixed = None if args.no_mixed else batch(seats, args.games, True, args.jobs, setting)
        print("\n".join(report(seats, alone, mixed)), flush=True)
        misses += [f"{seats}p {CARDS[c].name} {100 * alone.conjured[c] / alone.games:.1f}%"
                   for c in CREATURES if alone.conjured[c] < alone.games / 100]
    print("\nBelow 1%:", ", ".join(misses) or "none")


if __name__ == "__main__":
    main()
