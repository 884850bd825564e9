"""The one seeded generator used for play; docs/fairness.md specifies it byte for byte.

A stream is keyed by the match seed and a label (for example ``round/3/deck``), so adding a
new draw under a new label never shifts the draws of any other label.

Stream bytes: block i (i = 0, 1, 2, ...) is
``HMAC-SHA256(key=seed, msg=label_utf8 || 0x00 || i as 8 bytes big-endian)``; the stream is the
concatenation of the blocks.  ``below(n)`` reads 8 bytes as a big-endian unsigned integer x and
returns ``x % n`` unless ``x >= 2**64 - (2**64 % n)``, in which case it reads again (rejection
sampling, so every value is exactly equally likely).  ``shuffle`` is Fisher-Yates from the last
position down: for i from len-1 down to 1, j = below(i + 1), swap positions i and j.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_SPAN = 2**64


def label_bytes(*parts: object) -> bytes:
    """Encode a label such as ('round', 3, 'deck') as b'round/3/deck'."""
    return "/".join(str(part) for part in parts).encode("utf-8")


def mix_seeds(server_seed: bytes, client_seeds: Sequence[str | None]) -> bytes:
    """The match seed: SHA-256 over the server seed and each seat's client seed, in seat order.

    Each client seed is framed as its UTF-8 length (4 bytes big-endian) then its bytes; a seat
    that gave none contributes length 0, so seeds cannot be shifted between seats.
    """
    digest = hashlib.sha256(b"hearthlog-match-seed-v1\x00")
    digest.update(len(server_seed).to_bytes(4, "big") + server_seed)
    for seed in client_seeds:
        raw = (seed or "").encode("utf-8")
        digest.update(len(raw).to_bytes(4, "big") + raw)
    return digest.digest()


class Stream:
    """An endless byte stream for one label, read 8 bytes at a time."""

    def __init__(self, seed: bytes, label: bytes) -> None:
        # Keyed once, copied per block: hmac.digest would give the same bytes, but it lets go
        # of the interpreter lock on every call, and a server's event loop then waits behind
        # its other threads in the middle of a deal (docs/benchmarks.md, issue 33's tail).
        self._keyed = hmac.new(seed, None, hashlib.sha256)
        self._label = label
        self._block = 0
        self._buffer = b""

    def _take(self, size: int) -> bytes:
        """Return the next ``size`` bytes of the stream."""
        while len(self._buffer) < size:
            message = self._label + b"\x00" + self._block.to_bytes(8, "big")
            block = self._keyed.copy()
            block.update(message)
            self._buffer += block.digest()
            self._block += 1
        head, self._buffer = self._buffer[:size], self._buffer[size:]
        return head

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling."""
        if not 0 < n <= _SPAN:
            raise ValueError(f"below() needs 0 < n <= 2**64, got {n}")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = int.from_bytes(self._take(8), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in Fisher-Yates order; the input is left alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]


class Rng:
    """The match's generator: hands out one independent stream per label."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed

    def stream(self, *label: object) -> Stream:
        """The stream for a label; asking twice for one label gives the same bytes again."""
        return Stream(self._seed, label_bytes(*label))
