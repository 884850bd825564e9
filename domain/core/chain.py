"""The hash chain over a match's events: each hash commits to every event before it."""

import hashlib

GENESIS = bytes(32)


def link(previous: bytes, event_bytes: bytes) -> bytes:
    """sha256(previous hash || canonical event bytes); the first event's previous is 32 zeros."""
    return hashlib.sha256(previous + event_bytes).digest()


def chain(events: list[bytes], previous: bytes = GENESIS) -> list[bytes]:
    """The hash of every event in order, starting after ``previous``."""
    hashes = []
    for event_bytes in events:
        previous = link(previous, event_bytes)
        hashes.append(previous)
    return hashes
