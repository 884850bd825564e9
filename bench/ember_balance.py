"""Ember's balance by simulation (E10; docs/rules/ember.md, "Balance"). Run by hand:

    .venv/bin/python -m bench.ember_balance [--games 1000] [--jobs 2]

For 2 to 5 players it plays ``--games`` matches with the keeper bot in every seat (the default
options: the Call at 30 VP, the turn cap at round 30) and reports how each ended, each seat
position's wins (a shared win counts for each sharer) and the share of matches in which each
creature was conjured; then the same number of matches with one keeper among random bots (its
seat rotating), and the keeper's win rate. Only the seat the rules wait on acts, as the server's
bots do. Every match is seeded by its number, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections import Counter
from dataclasses import dataclass, field

from domain.core.bots import random_bot
from domain.core.rng import Rng
from domain.ember import GAME
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


def play(seats: int, index: int, keeper_seat: int | None) -> Tally:
    """One match: every seat the keeper (``keeper_seat`` None), or one keeper among random bots."""
    rng = Rng(f"ember balance {seats} {index} {keeper_seat}".encode())
    state = None
    for event in GAME.setup(Options(), NAMES[:seats], rng):
        state = GAME.evolve(state, event)
    tally, conjured = Tally(games=1), set()
    for version in range(MAX_COMMANDS):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        bot = keeper if keeper_seat in (None, seat) else random_bot
        actions = GAME.legal_actions(state, seat)
        action = bot(GAME.observe(state, seat), actions, rng.stream("bot", version, seat))
        for event in GAME.decide(state, seat, action, rng):
            if isinstance(event, Conjured) and CARDS[event.card].kind == "creature":
                conjured.add(event.card)
            if isinstance(event, ClosingBegan):
                tally.capped += event.capped
                tally.called += not event.capped
            state = GAME.evolve(state, event)
    outcome = GAME.outcome(state)
    assert outcome is not None, f"match {seats}/{index} did not end"
    tally.wins.update(outcome.winners)
    tally.conjured.update(conjured)
    tally.keeper_wins = int(keeper_seat in outcome.winners)
    tally.rounds = state.board.round
    return tally


def _job(args: tuple[int, int, bool]) -> Tally:
    """One match of a batch (for the process pool)."""
    seats, index, mixed = args
    return play(seats, index, index % seats if mixed else None)


def batch(seats: int, games: int, mixed: bool, jobs: int) -> Tally:
    """Many matches at one table size."""
    total = Tally()
    work = [(seats, index, mixed) for index in range(games)]
    with multiprocessing.Pool(jobs) as pool:
        for tally in pool.imap_unordered(_job, work, chunksize=8):
            total.add(tally)
    return total


def report(seats: int, alone: Tally, mixed: Tally) -> list[str]:
    """The lines of one table size's report."""
    wins = [alone.wins[s] for s in range(seats)]
    rare = sorted(CREATURES, key=lambda c: alone.conjured[c])[:3]
    least = ", ".join(f"{CARDS[c].name} {100 * alone.conjured[c] / alone.games:.1f}%"
                      for c in rare)
    ratio = max(wins) / max(1, min(wins))
    return [
        f"| {seats} | {alone.games} | {alone.called} | {alone.capped} | "
        f"{alone.rounds / alone.games:.1f} | {' / '.join(map(str, wins))} | {ratio:.2f} | "
        f"{least} | {100 * mixed.keeper_wins / mixed.games:.1f}% (1 in {seats}: "
        f"{100 / seats:.1f}%) |"
    ]


def main() -> None:
    """Run every table size and print the report as a markdown table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print("| players | games | ended by the Call | by the turn cap | rounds (mean) | wins by "
          "seat | most / fewest | least conjured creatures | keeper's win rate among random |")
    print("|---|---|---|---|---|---|---|---|---|")
    misses = []
    for seats in range(2, 6):
        alone = batch(seats, args.games, False, args.jobs)
        mixed = batch(seats, args.games, True, args.jobs)
        print("\n".join(report(seats, alone, mixed)), flush=True)
        misses += [f"{seats}p {CARDS[c].name} {100 * alone.conjured[c] / alone.games:.1f}%"
                   for c in CREATURES if alone.conjured[c] < alone.games / 100]
    print("\nBelow 1%:", ", ".join(misses) or "none")


if __name__ == "__main__":
    main()
