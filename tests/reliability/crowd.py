"""A hostile crowd on raw sockets: stalled uploads and open streams against one server.

Used as a library (``stalled``, ``raw``) by the quick tests, and as a script by the load test,
which runs it in a process of its own so that its thousands of sockets do not slow the probes:

    python -m tests.reliability.crowd PORT MATCH_ID UPLOADS STREAMS SECONDS

It opens UPLOADS requests that send their headers and half a body and then stall (each opened
again whenever the server answers it), and STREAMS followers of the match's stream (each read
to the end); prints "ready" once all are open, holds them SECONDS, closes them all and prints a
JSON report on its last line. Loopback only; it stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import Counter

HOST = "127.0.0.1"
HALF_BODY = (b"POST /matches HTTP/1.1\r\nHost: crowd\r\nContent-Type: application/json\r\n"
             b"Content-Length: 64\r\n\r\n{\"game\": \"wick-and-")


def stream_request(match_id: str) -> bytes:
    """The request line and headers of a spectator's stream."""
    return (f"GET /matches/{match_id}/stream HTTP/1.1\r\nHost: crowd\r\n"
            "Accept: text/event-stream\r\n\r\n").encode()


async def raw(port: int, data: bytes, seconds: float = 10.0) -> bytes:
    """Send bytes on a fresh connection and read until the server closes it (or time runs out)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(data)
    out = b""
    try:
        async with asyncio.timeout(seconds):
            while chunk := await reader.read(65536):
                out += chunk
    except TimeoutError:
        pass
    finally:
        writer.close()
    return out


def status_of(answer: bytes) -> int | None:
    """The status code of a raw HTTP answer (None when nothing came)."""
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


class Crowd:
    """The crowd's sockets and what the server told them."""

    def __init__(self, port: int, match_id: str, streams: int) -> None:
        self.port, self.match_id, self.streams = port, match_id, streams
        self.answered = asyncio.Event()  # set once every stream has its answer
        self.seen: Counter[str] = Counter()
        self.stop = asyncio.Event()
        self.open_uploads = self.answers = 0

    async def upload(self) -> None:
        """Keep one stalled upload open: opened again each time the server answers it."""
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port)
            except OSError:
                self.seen["upload connect failed"] += 1
                await asyncio.sleep(0.5)
                continue
            writer.write(HALF_BODY)
            self.open_uploads += 1
            answer = await self.first_bytes(reader)
            self.open_uploads -= 1
            writer.close()
            if answer is not None:
                self.seen[f"upload answered {status_of(answer)}"] += 1

    async def first_bytes(self, reader: asyncio.StreamReader) -> bytes | None:
        """What the server sends first, or None when the crowd leaves before it answers."""
        read = asyncio.ensure_future(reader.read(4096))
        stopping = asyncio.ensure_future(self.stop.wait())
        await asyncio.wait({read, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if read.done():
            return read.result()
        read.cancel()
        return None

    async def follow(self) -> None:
        """Follow the match's stream, reading every byte, until the crowd leaves."""
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
        except OSError:
            self.seen["stream connect failed"] += 1
            return
        writer.write(stream_request(self.match_id))
        head = await self.first_bytes(reader)
        status = status_of(head or b"")
        self.seen[f"stream answered {status}"] += 1
        self.answers += 1
        if self.answers >= self.streams:
            self.answered.set()
        updates = (head or b"").count(b"event: update")
        while status == 200 and not self.stop.is_set():
            chunk = await self.first_bytes(reader)
            if not chunk:
                break
            updates += chunk.count(b"event: update")
        self.seen["stream updates"] += updates
        self.seen["streams with an update"] += updates > 0
        writer.close()


async def gather_crowd(port: int, match_id: str, uploads: int, streams: int, seconds: float
                       ) -> dict[str, int]:
    """Open the crowd in batches, hold it, let it leave; what it was told."""
    crowd = Crowd(port, match_id, streams)
    tasks = []
    for start in range(0, max(uploads, streams), 100):
        tasks += [asyncio.ensure_future(crowd.upload())
                  for _ in range(min(100, max(0, uploads - start)))]
        tasks += [asyncio.ensure_future(crowd.follow())
                  for _ in range(min(100, max(0, streams - start)))]
        await asyncio.sleep(0.05)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(crowd.answered.wait(), 60)
    print("ready", flush=True)
    await asyncio.sleep(seconds)
    crowd.stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    return dict(crowd.seen)


def main() -> None:
    """The script: PORT MATCH_ID UPLOADS STREAMS SECONDS; the report is its last line."""
    port, match_id, uploads, streams, seconds = sys.argv[1:6]
    seen = asyncio.run(gather_crowd(int(port), match_id, int(uploads), int(streams),
                                    float(seconds)))
    print(json.dumps(seen, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
