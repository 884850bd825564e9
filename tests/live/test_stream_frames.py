"""A stream update's SSE frame is written by hand (service/http/api/stream.py ``frame``): it must
be byte for byte what litestar's ServerSentEventMessage writes, whatever the update's texts hold."""

from __future__ import annotations

import msgspec
from litestar.response import ServerSentEventMessage

from service.http.api.stream import frame
from service.live.feed import Served


def test_a_frame_is_litestars_message_for_texts_with_line_breaks_and_any_script():
    texts = ["plain", "two\nlines", "cr\rlf\r\n", "\u2028 \u2029 \x85", "Ash\u2019s \u263e \u706f", ""]
    data = msgspec.json.encode({"log": texts, "version": 1234}).decode()
    update = Served(first=1200, version=1234, data=data)
    litestar = ServerSentEventMessage(id=1234, event="update", data=data).encode()
    assert frame(update) == litestar
    assert frame(update).count(b"\n") == 4  # id, event, one data line, the blank line
