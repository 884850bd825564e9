"""Games a server carries beyond its own: HEARTHLOG_EXTRA_GAMES names the modules registering them.

The variable is a comma-separated list of importable module names (``tests.tally``); each module
registers its rulebooks on import (domain.registry.register), as domain/whiteout_road does. It
is read once when a server process starts (service/cli/main.py), before the app is built, so the
catalogue, loading, exports and verification all see the extra games. A name that cannot be
imported, or a game that breaks the contract, stops the start-up with a message naming it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping

from domain.core.contract import GameContractError

VARIABLE = "HEARTHLOG_EXTRA_GAMES"


class ExtraGamesError(RuntimeError):
    """A module named in HEARTHLOG_EXTRA_GAMES that could not be loaded; the message names it."""


def module_names(value: str) -> list[str]:
    """The module names of the variable's value, in order, blanks dropped."""
    return [name.strip() for name in value.split(",") if name.strip()]


def load_extra_games(environ: Mapping[str, str] = os.environ) -> list[str]:
    """Import every module the variable names (each registers its games); the names imported."""
    names = module_names(environ.get(VARIABLE, ""))
    for name in names:
        _load(name)
    return names


def _load(name: str) -> None:
    """Import one module, turning any failure into an error that names it."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise ExtraGamesError(
            f"{VARIABLE} names the module {name!r}, which cannot be imported ({error}); "
            "give importable module names, comma-separated, like 'tests.tally'"
        ) from None
    except (GameContractError, ValueError) as error:
        raise ExtraGamesError(f"{VARIABLE}: the module {name!r} registers a game that "
                              f"cannot be carried: {error}") from None
