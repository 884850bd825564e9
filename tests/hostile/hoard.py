"""Hostile crowds on raw sockets from an address of their own, for the slow attack tests:

    python -m tests.hostile.hoard KIND PORT COUNT SECONDS SOURCE

KIND is one of
- ``h2c``: connections that open HTTP/2 with prior knowledge (the preface and a SETTINGS
  frame) and then idle, each opened again whenever the server closes it;
- ``uploads``: requests that send their headers and half a body and stall, each opened again
  whenever the server answers it (as tests/reliability/crowd.py's, here from one address);
- ``exports``: `GET /exports/matches` whose answer is never read (a tiny receive buffer).
Every socket is bound to SOURCE (a loopback address such as 127.0.0.2), so the server counts the
crowd as one client apart from the test's probes. It prints "ready" once COUNT are open, holds
them SECONDS, closes them and prints a JSON report (what the server told them) as its last line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
from collections import Counter

from tests.reliability.crowd import HALF_BODY, status_of

HOST = "127.0.0.1"
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
EXPORT = b"GET /exports/matches HTTP/1.1\r\nHost: hoard\r\n\r\n"


class Hoard:
    """The crowd's sockets and what the server did with them."""

    def __init__(self, kind: str, port: int, source: str) -> None:
        self.kind, self.port, self.source = kind, port, source
        self.seen: Counter[str] = Counter()
        self.stop = asyncio.Event()
        self.opened = 0

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection from the crowd's address (a tiny receive buffer for exports)."""
        sock = socket.socket()
        sock.setblocking(False)
        if self.kind == "exports":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((self.source, 0))
        await asyncio.get_running_loop().sock_connect(sock, (HOST, self.port))
        return await asyncio.open_connection(sock=sock, limit=4096)

    async def hold(self) -> None:
        """Keep one hostile connection open, opened again whenever the server ends it."""
        first = True
        while not self.stop.is_set():
            try:
                reader, writer = await self.connect()
            except OSError:
                self.seen["connect failed"] += 1
                await asyncio.sleep(0.5)
                continue
            writer.write({"h2c": PREFACE, "uploads": HALF_BODY, "exports": EXPORT}[self.kind])
            if first:
                self.opened, first = self.opened + 1, False
            answer = await self.until_ended(reader)
            writer.close()
            if answer is not None:
                self.seen[self.outcome(answer)] += 1

    def outcome(self, answer: bytes) -> str:
        """What the server did with a connection it ended."""
        if answer.startswith(b"\x00\x00"):
            return "answered in HTTP/2"
        status = status_of(answer)
        return f"answered {status}" if status else "closed unanswered"

    async def until_ended(self, reader: asyncio.StreamReader) -> bytes | None:
        """The first bytes the server sent (exports: never read past them), or None when the
        crowd leaves first."""
        first = asyncio.ensure_future(reader.read(64))
        stopping = asyncio.ensure_future(self.stop.wait())
        await asyncio.wait({first, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if not first.done():
            first.cancel()
            return None
        head = first.result()
        if self.kind == "exports" and head:
            self.seen["exports begun"] += 1
            await stopping  # never read further: the slow reader
            return None
        stopping.cancel()
        return head


async def gather(kind: str, port: int, count: int, seconds: float, source: str) -> dict:
    """Open the crowd in batches, hold it, let it leave; what it was told."""
    hoard = Hoard(kind, port, source)
    tasks = []
    for start in range(0, count, 200):
        tasks += [asyncio.ensure_future(hoard.hold()) for _ in range(min(200, count - start))]
        await asyncio.sleep(0.02)
    print("ready", flush=True)
    await asyncio.sleep(seconds)
    hoard.stop.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    return {"opened": hoard.opened, **hoard.seen}


def main() -> None:
    """The script: KIND PORT COUNT SECONDS SOURCE; the report is its last line."""
    kind, port, count, seconds, source = sys.argv[1:6]
    report = asyncio.run(gather(kind, int(port), int(count), float(seconds), source))
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
