"""Benchmark: what the front costs a request, this tree against an earlier commit (issue 33 item 3).

The HTTP figures of bench/http.py swing by a third between rounds on the shared machine; this
one isolates the wrappers every request passes (access log, limits, body deadline, security
headers, slow readers) and the seat-token check. In each tree (this one, and ``--before`` in a
temporary worktree), a fresh process drives its own front around an app that answers at once:
a seat's GET (no body) and a seat's command POST (a JSON body), alternately, with the access
lines written to /dev/null as a served worker writes them. It reports the event loop's time per
request and the process's CPU per request (the access line's writer thread included), and the
time of ``Access.seat`` for a seat whose token the process already knows. Trees alternate
within a round, the order swapped each round. Run:

    PYTHONPATH=. python -m bench.front --before COMMIT [--rounds 5] [--requests 20000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench import common

ROOT = common.ROOT
MEASURE = r'''
import asyncio, json, os, sys, time
os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the access lines: written, to nowhere
from service import logs
logs.configure()
from service.http import front
from service.http.limits import ClientLimits, Limits
limits = Limits(requests_per_minute=10**9)
MATCH = "4f9c1c52-8f0e-4a8e-9d55-0b7e1d1f2a10"
BODY = b'{"command": {"type": "play", "card": "lamp_warden", "target": 1}}'
AUTH = (b"authorization", b"Bearer seat-token-seat-token-seat-token-seat-token-xx")

async def app(scope, receive, send):
    if scope["method"] == "POST":
        while (await receive()).get("more_body"):
            pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})

if hasattr(front, "Front"):
    chain = front.Front(app, limits, ClientLimits(app, limits))
else:  # the five layers of before
    from service.http.reading import BodyReading
    reading = BodyReading(limits.body_seconds)
    async def read_body(scope, receive, send):
        await reading.handle(scope, receive, send, app)
    chain = logs.AccessLog(front.SecurityHeaders(ClientLimits(
        front.SlowReaders(read_body, limits.send_seconds), limits)))

def scope(post):
    path = f"/matches/{MATCH}/" + ("commands" if post else "legal-actions")
    headers = [AUTH, (b"host", b"127.0.0.1:8000")]
    if post:
        headers += [(b"content-type", b"application/json"),
                    (b"content-length", str(len(BODY)).encode())]
    return {"type": "http", "method": "POST" if post else "GET", "path": path,
            "headers": headers, "client": ("127.0.0.1", 40000), "scheme": "http"}

async def receive():
    return {"type": "http.request", "body": BODY, "more_body": False}

async def send(message):
    pass

async def requests(count):
    for n in range(count):
        await chain(scope(n % 2 == 1), receive, send)

async def seats(count):
    from service.access import Access
    from service.auth import token_hash
    from service.store.postgres import PostgresStore
    from service.store.protocol import match_uuid
    store = PostgresStore(None)
    store.seats.put((match_uuid(MATCH), token_hash("seat-token")), 1)
    access = Access(store)
    for _ in range(count):
        await access.seat(MATCH, "seat-token")

def timed(work, count):
    asyncio.run(work(count // 10))  # warm up
    wall, cpu = time.perf_counter(), time.process_time()
    asyncio.run(work(count))
    return ((time.perf_counter() - wall) / count * 1e6, (time.process_time() - cpu) / count * 1e6)

count = int(sys.argv[1])
loop_us, cpu_us = timed(requests, count)
seat_us, _ = timed(seats, count)
print(json.dumps({"loop_us": loop_us, "cpu_us": cpu_us, "seat_us": seat_us}))
'''


def measure(tree: Path, requests: int) -> dict[str, float]:
    """One fresh process of ``tree``'s code: its per-request figures."""
    figures: dict[str, float] = json.loads(common.output_of(tree, ["-c", MEASURE, str(requests)]))
    return {name: round(value, 2) for name, value in figures.items()}


def work(args: argparse.Namespace) -> dict[str, Any]:
    """Alternating rounds of this tree and the earlier commit; medians and per-round ratios."""
    load = [common.load_average()]
    with common.tree_at(args.before) as old:
        runs = common.alternate({"before": old, "after": ROOT}, args.rounds,
                                lambda tree, _: measure(tree, args.requests))
    load.append(common.load_average())
    return {"benchmark": "front", "before": args.before, "requests": args.requests,
            **common.compared(runs), "load_average": load}


def main() -> None:
    """Run the benchmark and save its results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="COMMIT")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=20_000)
    args = parser.parse_args()
    print(common.run_and_save("front", lambda: work(args)))


if __name__ == "__main__":
    main()
