"""A minimal keep-alive HTTP/1.1 client: load that costs the client as little as possible.

The load generator shares two cores with the server and Postgres, so its own cost per request
must be small and the same for every server measured; a general client (httpx) costs several
times more. It speaks only what our servers answer: a status line, headers, Content-Length.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgspec

_decode = msgspec.json.decode


class Wire:
    """One HTTP/1.1 connection to 127.0.0.1, reopened when the server closes it."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.auth = f"authorization: Bearer {token}\r\n" if token else ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send one request and return (status, decoded JSON body)."""
        payload = b"" if body is None else msgspec.json.encode(body)
        head = (f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n{self.auth}"
                f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n\r\n")
        for attempt in (1, 2):
            try:
                return await self._exchange(head.encode() + payload)
            except (asyncio.IncompleteReadError, ConnectionError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, raw: bytes) -> tuple[int, Any]:
        """Write a request on the open (or a new) connection and read the whole answer."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(raw)
        header = await self.reader.readuntil(b"\r\n\r\n")
        status = int(header[9:12])
        length = 0
        for line in header.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = await self.reader.readexactly(length) if length else b""
        return status, _decode(body) if body else None

    async def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Stream:
    """One seat's match stream (Server-Sent Events), read as it comes: each update's data is
    kept as ``latest`` and ``changed`` is set. It reads chunked or plain bodies alike."""

    def __init__(self, port: int, path: str, token: str) -> None:
        self.port, self.path, self.token = port, path, token
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Read the stream in a task of its own until ``stop``."""
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def stop(self) -> None:
        """Stop reading and close the connection."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _read(self) -> None:
        """Open the stream and keep each update."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(f"GET {self.path} HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                         f"authorization: Bearer {self.token}\r\n\r\n".encode())
            header = (await reader.readuntil(b"\r\n\r\n")).lower()
            chunked = b"transfer-encoding: chunked" in header
            pending = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    pending += await reader.readexactly(size + 2)
                    pending = pending[:-2]
                else:
                    pending += await reader.read(65536)
                *events, pending = pending.replace(b"\r\n", b"\n").split(b"\n\n")
                for event in events:
                    self._take(event)
        finally:
            writer.close()

    def _take(self, event: bytes) -> None:
        """Keep one event's data, if it has any (a heartbeat has none)."""
        data = [line[5:].lstrip() for line in event.split(b"\n") if line.startswith(b"data:")]
        if data:
            self.latest = _decode(b"\n".join(data))
            self.changed.set()
