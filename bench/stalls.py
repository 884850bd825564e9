"""Where an event loop stalls: a watchdog a benchmark's processes run when asked (opt-in).

A ``Watch`` ticks on the loop every millisecond; a gap between two ticks longer than
``threshold`` is a stall (the loop ran something, or waited for the GIL, that long without
coming back). A watchdog thread, meanwhile, takes the loop thread's stack (``sys._current_frames``)
whenever the loop has not ticked for longer than the threshold, so a stall comes with what the loop
was doing in it, and with the innermost frame of every other thread (one holding the GIL shows
there). ``gc.callbacks`` time every collection, by generation. Times are ``time.perf_counter``,
which on Linux is the system-wide monotonic clock, so the load generator can lay the server's
stalls beside its own latencies.

The served worker runs one when ``HEARTHLOG_BENCH_STALLS`` names a folder (bench/served.py adds
it to the app): it appends its events to ``<folder>/server-<pid>.jsonl`` every few hundred
milliseconds. The load generator runs one in its own process (bench/http.py ``--stalls``). It is
never part of the served code: ``hearthlog serve`` knows nothing of it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ENV = "HEARTHLOG_BENCH_STALLS"
THRESHOLD = 0.005  # seconds without a tick that make a stall
TICK = 0.001
DEPTH = 16  # frames kept of a stalled loop's stack, innermost first
ROOT = str(Path(__file__).resolve().parents[1]) + os.sep  # the project: its frames are "ours"
OURS = ("service/", "domain/", "projections/", "bench/")


def frames(frame: Any, depth: int = DEPTH) -> list[str]:
    """A stack as short 'file:line function' strings, innermost first: the project's files by
    their path in it, any other by its last two parts after 'lib:'."""
    found: list[str] = []
    while frame is not None and len(found) < depth:
        code = frame.f_code
        name = code.co_filename
        where = (name.removeprefix(ROOT) if name.startswith(ROOT)
                 else "lib:" + "/".join(Path(name).parts[-2:]))
        found.append(f"{where}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return found


def place(stack: list[str]) -> str:
    """Where a stalled loop was: its innermost frame, and the innermost of the project's
    (outside bench/stalls.py) when that is another."""
    if not stack:
        return "-"
    ours = next((f for f in stack if f.startswith(OURS) and "stalls.py" not in f), "-")
    return stack[0] if stack[0] == ours else f"{stack[0]} < {ours}"


class Watch:
    """A loop's stalls and the process's collections, as events (``stalls``, ``collections``)."""

    def __init__(self, threshold: float = THRESHOLD) -> None:
        self.threshold = threshold
        self.stalls: list[dict[str, Any]] = []  # {at, seconds, stacks, others}
        self.collections: list[tuple[float, int, float, bool]] = []  # at, generation, s, on loop
        self._last = time.perf_counter()
        self._ticks = 0
        self._samples: dict[int, list[Any]] = {}  # by the tick the loop stalled after
        self._loop_thread = 0
        self._gc_began = 0.0
        self._stopped = threading.Event()

    def start(self) -> None:
        """Watch the running loop (call from a coroutine on it) and the collector."""
        self._loop_thread = threading.get_ident()
        self._last = time.perf_counter()
        asyncio.get_running_loop().create_task(self._heartbeat(), name="bench-stall-watch")
        threading.Thread(target=self._watchdog, name="bench-stall-watchdog", daemon=True).start()
        gc.callbacks.append(self._collected)

    def stop(self) -> None:
        """Stop the watchdog and the collector's timing (the heartbeat ends with its loop)."""
        self._stopped.set()
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)

    async def _heartbeat(self) -> None:
        """Tick; a late tick records a stall with the stacks taken while it lasted, and what
        the loop's thread did meanwhile: its CPU seconds (``cpu``; near ``seconds`` when it
        ran all along) and how often the kernel took the CPU from it (``preempted``,
        involuntary switches) or it gave the CPU up (``waited``: a lock such as the GIL, or
        a blocking call)."""
        before = resource.getrusage(resource.RUSAGE_THREAD)
        while not self._stopped.is_set():
            await asyncio.sleep(TICK)
            now, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_THREAD)
            gap = now - self._last
            if gap > self.threshold + TICK:
                samples = self._samples.pop(self._ticks, [])
                cpu = used.ru_utime + used.ru_stime - before.ru_utime - before.ru_stime
                self.stalls.append({"at": self._last, "seconds": gap, "cpu": cpu,
                                    "preempted": used.ru_nivcsw - before.ru_nivcsw,
                                    "waited": used.ru_nvcsw - before.ru_nvcsw,
                                    "stacks": [s[0] for s in samples],
                                    "others": [s[1] for s in samples]})
            self._samples.clear()
            self._ticks += 1
            self._last, before = now, used

    def _watchdog(self) -> None:
        """Every millisecond: if the loop is late, take its stack (one sample per threshold)."""
        sampled_at = 0.0
        while not self._stopped.wait(TICK):
            now, tick = time.perf_counter(), self._ticks
            if now - self._last > self.threshold and now - sampled_at > self.threshold:
                every = sys._current_frames()
                loop = frames(every.get(self._loop_thread))
                others = {str(ident): frames(frame, 2) for ident, frame in every.items()
                          if ident not in (self._loop_thread, threading.get_ident())}
                self._samples.setdefault(tick, []).append((loop, others))
                sampled_at = now

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """Time one collection (gc.callbacks calls this before and after it)."""
        if phase == "start":
            self._gc_began = time.perf_counter()
            return
        self.collections.append((self._gc_began, info["generation"],
                                 time.perf_counter() - self._gc_began,
                                 threading.get_ident() == self._loop_thread))


class Appending:
    """Appends a ``Watch``'s new events to a JSON-lines file, from a thread of its own."""

    def __init__(self, watch: Watch, path: Path, every: float = 0.25) -> None:
        self.watch, self.path, self.every = watch, path, every
        self._stalls = self._collections = 0
        threading.Thread(target=self._run, name="bench-stall-writer", daemon=True).start()

    def _run(self) -> None:
        """Write what is new, pause, again."""
        while not self.watch._stopped.wait(self.every):
            self.flush()

    def flush(self) -> None:
        """Append the events recorded since the last flush."""
        stalls = self.watch.stalls[self._stalls:]
        collections = self.watch.collections[self._collections:]
        self._stalls += len(stalls)
        self._collections += len(collections)
        with self.path.open("a") as out:
            for stall in stalls:
                out.write(json.dumps({"stall": stall}) + "\n")
            for collection in collections:
                out.write(json.dumps({"gc": collection}) + "\n")


def served_hooks() -> tuple[list[Any], list[Any]]:
    """The app's start-up and shutdown hooks that watch this worker, when ``ENV`` names a folder
    (else none)."""
    folder = os.environ.get(ENV)
    if not folder:
        return [], []
    watch = Watch()
    appending: list[Appending] = []

    async def begin() -> None:
        """Watch this worker's loop; write its events as they come."""
        watch.start()
        appending.append(Appending(watch, Path(folder) / f"server-{os.getpid()}.jsonl"))

    async def end() -> None:
        """Write what is left and stop."""
        watch.stop()
        for writer in appending:
            writer.flush()

    return [begin], [end]


def read_events(folder: Path) -> tuple[list[dict[str, Any]], list[tuple[float, int, float, bool]]]:
    """Every server worker's stalls and collections written to ``folder`` so far."""
    stalls: list[dict[str, Any]] = []
    collections: list[tuple[float, int, float, bool]] = []
    for path in sorted(folder.glob("server-*.jsonl")):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if "stall" in event:
                stalls.append(event["stall"])
            else:
                collections.append(tuple(event["gc"]))
    return stalls, collections


def summary(stalls: list[dict[str, Any]], collections: list[tuple[float, int, float, bool]],
            start: float, stop: float, top: int = 8) -> dict[str, Any]:
    """The stalls and collections that began in [start, stop): counts, milliseconds (total and
    longest), collections by generation, and the commonest places a stalled loop was in."""
    inside = [s for s in stalls if start <= s["at"] < stop]
    found: dict[str, Any] = {
        "stalls": len(inside), "stall_ms": round(1e3 * sum(s["seconds"] for s in inside), 1),
        "longest_stall_ms": round(1e3 * max((s["seconds"] for s in inside), default=0.0), 1),
        "stall_cpu_ms": round(1e3 * sum(s["cpu"] for s in inside), 1),
        "preempted_stalls": sum(s["preempted"] > 0 for s in inside),
        "waited_stalls": sum(s["waited"] > 0 for s in inside)}
    for generation in (0, 1, 2):
        times = [c[2] for c in collections if c[1] == generation and start <= c[0] < stop]
        found[f"gc{generation}"] = [len(times), round(1e3 * sum(times), 1),
                                    round(1e3 * max(times, default=0.0), 1)]
    places = Counter(place(stack) for stall in inside for stack in stall["stacks"])
    found["places"] = places.most_common(top)
    return found


def overlapping(began: list[float], latencies: list[float], share: float,
                spans: list[tuple[float, float]]) -> float:
    """Of the requests at or above the ``share`` percentile of latency, the fraction whose time
    overlapped one of ``spans`` (start, seconds)."""
    if not latencies:
        return 0.0
    cut = sorted(latencies)[min(len(latencies) - 1, int(share * len(latencies)))]
    slow = [(b, b + late) for b, late in zip(began, latencies, strict=True) if late >= cut]
    hit = sum(any(at < end and at + seconds > start for at, seconds in spans)
              for start, end in slow)
    return round(hit / len(slow), 2)


def stall_spans(stalls: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """Stalls as (start, seconds)."""
    return [(s["at"], s["seconds"]) for s in stalls]


def collection_spans(collections: list[tuple[float, int, float, bool]], generation: int
                     ) -> list[tuple[float, float]]:
    """One generation's collections as (start, seconds)."""
    return [(c[0], c[2]) for c in collections if c[1] == generation]
