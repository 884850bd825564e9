"""Attack: HTTP/2 spoken on the plain port, and connections opened and left idle (issue #34,
defect 1).

The plain port accepted HTTP/2 with prior knowledge (h2c), and granian never cut an idle HTTP/2
connection: 8,300 of them from one address stopped /health. The plain port now speaks HTTP/1.1
alone (granian's `http` mode "1"): an HTTP/2 preface is closed at once, never answered with
HTTP/2 settings; and an HTTP/1.1 connection left idle after its request is closed once the
header time (HEARTHLOG_HEADER_SECONDS) runs out. The load itself is in docs/reliability.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.servers import Server, serving

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # + SETTINGS
HEADER_SECONDS = 1
BOUND = 30.0  # how long the test waits for the server to close, at most


@pytest.fixture(scope="module")
def quick_to_cut(server_database: str) -> Iterator[Server]:
    """A server whose header time is one second."""
    with serving(server_database, env={"HEARTHLOG_HEADER_SECONDS": str(HEADER_SECONDS)}) as up:
        yield up


async def until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (at most BOUND seconds)."""
    out = b""
    async with asyncio.timeout(BOUND):
        while chunk := await reader.read(65536):
            out += chunk
    return out


async def test_an_http2_preface_on_the_plain_port_is_closed_not_answered_in_http2(quick_to_cut):
    """Given the plain port, when a client opens HTTP/2 with prior knowledge (the preface and a
    SETTINGS frame) and then sends nothing, then the server never answers with HTTP/2 frames
    and closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", quick_to_cut.port)
    writer.write(PREFACE)
    answer = await until_closed(reader)
    writer.close()
    assert not answer.startswith(b"\x00\x00"), answer[:40]  # an HTTP/2 frame's length, type 4
    assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:80]


async def test_a_keep_alive_connection_left_idle_is_closed_after_the_header_time(quick_to_cut):
    """Given a connection whose request was answered and kept alive, when the client sends
    nothing more, then the server closes it (within the header time, here one second; the
    test waits up to thirty)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", quick_to_cut.port)
    writer.write(b"GET /health HTTP/1.1\r\nHost: hostile\r\n\r\n")
    answer = await until_closed(reader)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200")
