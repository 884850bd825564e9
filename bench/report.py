"""Render bench/results/*.json as the tables of docs/benchmarks.md (between its bench markers).

Rates are medians over interleaved rounds; a ratio is the median of the per-round ratios (each
round measures both systems back to back, so a load spike on the shared machine hits both).
Run by `make bench` after the benchmarks, or alone:

    PYTHONPATH=. python -m bench.report [--check]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from bench.common import RESULTS

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
SERVED = "granian"  # the server `hearthlog serve` runs


def load(name: str) -> dict[str, Any] | None:
    """One benchmark's saved document, if it was run."""
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def med(runs: list[dict[str, Any]], field: str) -> float:
    """The median of one field over rounds."""
    return statistics.median(run[field] for run in runs)


def ratio(mine: list[dict[str, Any]], base: list[dict[str, Any]], field: str = "rate") -> float:
    """The median over rounds of mine / base."""
    return statistics.median(a[field] / b[field] for a, b in zip(mine, base, strict=True))


def appends_table(doc: dict[str, Any]) -> list[str]:
    """Appends: each system at each concurrency, and Hearthlog against each baseline."""
    rows = ["| writers | system | appends/s | p50 ms | p99 ms | Hearthlog ÷ this |",
            "|---:|---|---:|---:|---:|---:|"]
    for level in doc["results"]:
        runs, ours = level["runs"], level["runs"]["hearthlog"]
        for name, measured in runs.items():
            share = "" if name == "hearthlog" else f"{ratio(ours, measured):.2f}"
            rows.append(f"| {level['concurrency']} | {name} | {med(measured, 'rate'):.0f} | "
                        f"{med(measured, 'p50_ms'):.1f} | {med(measured, 'p99_ms'):.1f} | "
                        f"{share} |")
    return rows


def http_table(doc: dict[str, Any]) -> list[str]:
    """HTTP: per server kind and N, the bare endpoint, Hearthlog's commands and requests."""
    rows = ["| server | matches | bare req/s | bare p99 ms | commands/s | command p50 / p99 ms "
            "| requests/s | requests ÷ bare | commands ÷ bare | command p99 ÷ bare p99 "
            "| bare with streams ÷ bare | commands ÷ bare with streams |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for level in doc["levels"]:
        bare = level["runs"]["bare"]
        cmds, reqs = level["runs"]["hearthlog-commands"], level["runs"]["hearthlog-requests"]
        streams = level["runs"].get("bare-with-streams")  # since issue 33's sixth stop
        fanned = (f"{ratio(streams, bare):.2f} | {ratio(cmds, streams):.2f}" if streams
                  else "- | -")
        rows.append(
            f"| {level['server']} | {level['matches']} | {med(bare, 'rate'):.0f} | "
            f"{med(bare, 'p99_ms'):.0f} | {med(cmds, 'rate'):.0f} | {med(cmds, 'p50_ms'):.0f} / "
            f"{med(cmds, 'p99_ms'):.0f} | {med(reqs, 'rate'):.0f} | {ratio(reqs, bare):.2f} | "
            f"{ratio(cmds, bare):.2f} | {ratio(cmds, bare, 'p99_ms'):.2f} | {fanned} |")
    return rows


BUDGETED = ("bare", "bare-with-streams", "hearthlog-commands", "two-request-commands")


def budget_table(doc: dict[str, Any]) -> list[str]:
    """HTTP: what one operation costs the shared machine (the server's, Postgres's and the load
    generator's CPU, medians over rounds) beside its rate ÷ the bare route's; none when the run
    did not measure Postgres's CPU (before issue 33's eighth stop)."""
    rows = ["| server | matches | system | server µs | Postgres µs | load generator µs "
            "| machine µs | bare machine µs ÷ this | rate ÷ bare |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for level in doc["levels"]:
        runs, bare = level["runs"], level["runs"]["bare"]
        if not bare[0].get("postgres_cpu_us"):
            return []
        parts = ("server_cpu_us", "postgres_cpu_us", "client_cpu_us")
        whole = {name: statistics.median(sum(run[p] for p in parts) for run in runs[name])
                 for name in BUDGETED if name in runs}
        for name in whole:
            costs = " | ".join(f"{med(runs[name], part):.0f}" for part in parts)
            rows.append(f"| {level['server']} | {level['matches']} | {name} | {costs} | "
                        f"{whole[name]:.0f} | {whole['bare'] / whole[name]:.2f} | "
                        f"{ratio(runs[name], bare):.2f} |")
    return rows


def _rate(game: dict[str, Any], name: str) -> str:
    """A rate per CPU second, or a dash for results saved before it was measured."""
    return f"{game[name]['per_cpu_second']:.0f}" if name in game else "-"


def verification_table(doc: dict[str, Any]) -> list[str]:
    """Verification per CPU second, beside a plain fold and the floors of the same documents."""
    rows = ["| game | matches | events | verified / CPU s | fold only / CPU s "
            "| the rules alone / CPU s | floor: read and hash only / CPU s "
            "| floor: read only / CPU s | floor: the hash chain alone / CPU s "
            "| verified / wall s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game in doc["games"]:
        rows.append(f"| {game['game']} | {game['matches']} | {game['events']} | "
                    f"{game['verify']['per_cpu_second']:.0f} | "
                    f"{game['fold']['per_cpu_second']:.0f} | {_rate(game, 'rules')} | "
                    f"{_rate(game, 'chain')} | {_rate(game, 'read')} | {_rate(game, 'hash')} | "
                    f"{game['verify']['per_wall_second']:.0f} |")
    return rows


def command_table(doc: dict[str, Any]) -> list[str]:
    """`hearthlog verify FILE`: one job against one per core, wall rates with start-up."""
    rows = ["| game | matches | cores | --jobs 1, matches / wall s | one job per core, matches / "
            "wall s | speed-up | the machine's ceiling (a CPU-bound loop per core) |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for game in doc["games"]:
        if "command" in game:
            run = game["command"]
            rows.append(f"| {game['game']} | {game['matches']} | {run['cores']} | "
                        f"{run['one_job_per_wall_second']:.0f} | "
                        f"{run['every_core_per_wall_second']:.0f} | {run['speedup']:.2f} x | "
                        f"{run.get('machine_ceiling', 0):.2f} x |")
    return rows


def cold_table(doc: dict[str, Any]) -> list[str]:
    """Cold start: a fresh service's first view, beside a raw fetch and a warm view."""
    rows = ["| match | events | cold view ms | very first (no snapshot yet) ms | raw fetch of "
            "every event ms | warm view ms |", "|---|---:|---:|---:|---:|---:|"]
    for r in doc["results"]:
        rows.append(f"| {r['match']} | {r['events']:,} | {r['cold_ms']:.1f} | "
                    f"{r['first_cold_ms']:.1f} | {r['fetch_ms']:.1f} | {r['warm_ms']:.1f} |")
    return rows


def bars(docs: dict[str, Any]) -> list[str]:
    """The issue's bars, each with the figure that decides it."""
    rows = ["| bar | measured | met |", "|---|---|---|"]
    if docs["appends"]:
        top = next(x for x in docs["appends"]["results"] if x["concurrency"] == 32)["runs"]
        floor = ratio(top["hearthlog"], top["floor"])
        peer = ratio(top["hearthlog"], top["eventsourcing-application"])
        plain = ratio(top["hearthlog"], top["eventsourcing-aggregate"])
        rows.append(f"| appends at 32 writers >= 0.60 x plain INSERT | {floor:.2f} x | "
                    f"{_yes(floor >= 0.6)} |")
        rows.append(f"| appends at 32 writers >= 2 x eventsourcing (application recorder; "
                    f"aggregate recorder: {plain:.2f} x) | {peer:.2f} x | {_yes(peer >= 2)} |")
    if docs["http"]:
        level = next(x for x in docs["http"]["levels"]
                     if x["server"] == SERVED and x["matches"] == 64)["runs"]
        # The requests bar was set for a client that sends a GET and a POST a move: since one
        # request a move (issue #33) that is the two-request client; the commands, this one's.
        two = "two-request-requests" if "two-request-requests" in level else "hearthlog-requests"
        reqs = ratio(level[two], level["bare"])
        cmds = ratio(level["hearthlog-commands"], level["bare"])
        p99 = ratio(level["hearthlog-commands"], level["bare"], "p99_ms")
        rows.append(f"| HTTP, 64 matches: requests/s >= 0.40 x bare, GET and POST a move "
                    f"(commands alone, one request a move: {cmds:.2f} x) | {reqs:.2f} x | "
                    f"{_yes(reqs >= 0.4)} (commands: {_yes(cmds >= 0.4)}) |")
        rows.append(f"| HTTP, 64 matches: command p99 <= 2 x bare p99 | {p99:.2f} x | "
                    f"{_yes(p99 <= 2)} |")
    if docs["verification"]:
        game = next(g for g in docs["verification"]["games"] if g["game"] == "wick-and-ember")
        rate = game["verify"]["per_cpu_second"]
        rows.append(f"| >= 2,000 Wick & Ember matches verified per CPU second | {rate:.0f} | "
                    f"{_yes(rate >= 2000)} |")
    if docs["cold_start"]:
        big = next(r for r in docs["cold_start"]["results"] if r["match"].startswith("synth"))
        rows.append(f"| 10,000-event stream served cold in < 100 ms | {big['cold_ms']:.1f} ms "
                    f"({big['events']:,} events) | {_yes(big['cold_ms'] < 100)} |")
    return rows


def _yes(met: bool) -> str:
    """A bar's verdict."""
    return "yes" if met else "**no**"


def machine_line(docs: dict[str, Any]) -> str:
    """What the figures were measured on, and how loaded it was."""
    first = next(d for d in docs.values() if d)
    m = first["machine"]
    loads = ", ".join(f"{name} {d['machine']['load_average_at_start'][0]} → "
                      f"{d['load_average_at_end'][0]}" for name, d in docs.items() if d)
    return (f"Measured on {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Python "
            f"{m['python']}, embedded Postgres with default (durable) settings. One-minute load "
            f"average at the start → end of each benchmark (it counts the benchmark's own "
            f"processes and anything else running on the two cores): {loads}.")


def render() -> str:
    """The generated part of docs/benchmarks.md."""
    docs = {name: load(name) for name in ("appends", "http", "verification", "cold_start")}
    parts = [BEGIN, "", machine_line(docs), "", "**The bars**", "", *bars(docs)]
    for title, name, table in (("Appends", "appends", appends_table),
                               ("The command path over HTTP", "http", http_table),
                               ("What an operation costs the machine (CPU per operation)",
                                "http", budget_table),
                               ("Verification", "verification", verification_table),
                               ("The verify command (wall clock, start-up included)",
                                "verification", command_table),
                               ("Cold start", "cold_start", cold_table)):
        rows = table(docs[name]) if docs[name] else []
        if rows:
            parts += ["", f"**{title}**", "", *rows]
    return "\n".join([*parts, "", END])


def main() -> None:
    """Replace the generated part of docs/benchmarks.md (or, with --check, print it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print, do not write")
    args = parser.parse_args()
    text = render()
    if args.check:
        print(text)
        return
    doc = DOC.read_text()
    start, end = doc.index(BEGIN), doc.index(END) + len(END)
    DOC.write_text(doc[:start] + text + doc[end:])
    print(f"updated {DOC}")


if __name__ == "__main__":
    main()
