"""One way to model a game's phases: the phase is the state's type (docs/adding-a-game.md).

A game's state is a union of frozen Structs, one per phase (``Drafting | Playing | Over``), not a
``phase`` field. Where the phases share most of the table, they subclass one Struct that holds
it, and ``become`` moves the table from one phase to another.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

Phase = TypeVar("Phase", bound=msgspec.Struct)


def become(phase: type[Phase], state: msgspec.Struct, **changes: Any) -> Phase:
    """The same table in another phase: the fields of the nearest type both phases derive from
    are kept, fields only the old phase had are dropped, and ``changes`` are applied."""
    shared = next(base for base in type(state).__mro__ if issubclass(phase, base))
    kept = {name: getattr(state, name) for name in getattr(shared, "__struct_fields__", ())}
    return phase(**{**kept, **changes})
