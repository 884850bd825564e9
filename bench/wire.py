"""A minimal keep-alive HTTP/1.1 client: load that costs the client as little as possible.

The load generator shares two cores with the server and Postgres, so its own cost per request
must be small and the same for every server measured; a general client (httpx) costs several
times more. It speaks only what our servers answer: a status line, headers, Content-Length.
"""

from __future__ import annotations

import asyncio
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
