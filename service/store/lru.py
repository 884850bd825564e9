"""A bounded map that forgets the least recently used entry first: for facts that never change."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class Lru:
    """At most ``capacity`` entries; a lookup refreshes an entry."""

    def __init__(self, capacity: int) -> None:
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._capacity = capacity

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key``, or None."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep a value (never None), forgetting the oldest entry when full."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self._capacity:
            self._entries.popitem(last=False)
