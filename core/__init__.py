"""The Colosseum rules engine: pure Python over frozen msgspec Structs.  No UI imports.

Public API::

    from colosseum.core import GameSetup, new_game, to_act, legal, apply, RuleError
    state = new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=7))
    choices = legal(state)                   # what the player to act may do
    state, events = apply(state, choices.actions[0])
    data = encode_state(state); decode_state(data) == state

The pure rule queries the bots and the client share with the engine (G-7 stars, noble landing,
missing performers, safe actions ...) are in :mod:`colosseum.core.queries`; the engine by phase
is in ``core/phases/``.

The names are loaded when first used (PEP 562): the command line's choices (``VARIANTS`` from
the module ``colosseum.core.catalog``) and the new-game screen do not load the engine.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

#: public names that are also the names of their modules: ``colosseum.core.legal`` is the rules
#: query ``legal(state)`` and ``colosseum.core.catalog`` is ``catalog(state)``, never the module
_SHADOWED = frozenset(("catalog", "legal"))


class _Package(types.ModuleType):
    """This package's module: keeps the names in ``_SHADOWED`` bound to the functions."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return  # the import system binding a loaded submodule: the name stays the function
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:
    from .actions import *  # noqa: F401,F403  (the action classes)
    from .actions import ACTION_TYPES, Action, decode_action, encode_action
    from .catalog import Catalog, CatalogError, Spectacle, load_catalog
    from .engine import (
        Breakdown,
        apply,
        breakdown,
        catalog,
        credit,
        least_acclaimed,
        match,
        most_acclaimed,
        new_game,
        rank,
        spectacle_by_key,
        star_count,
        to_act,
        why_not_performable,
    )
    from .errors import RuleError
    from .legal import BidOption, Choices, legal, may_propose, performable
    from .model import Event, GameSetup, Player, Result, State, Transfer
    from .queries import (
        ANY_SEAT_ACTIONS,
        gate_owner,
        landing,
        missing,
        missings,
        next_stars,
        safe_action,
        star_holder,
        star_need,
        stars_after,
        stars_held,
    )
    from .serial import decode_state, encode_state, replay
else:
    #: where each public name lives (a name in two modules: the later import used to win)
    _WHERE: dict[str, str] = {
        "ACTION_TYPES": "actions",
        "Action": "actions",
        "decode_action": "actions",
        "encode_action": "actions",
        "Catalog": "catalog",
        "CatalogError": "catalog",
        "Spectacle": "catalog",
        "load_catalog": "catalog",
        "Breakdown": "engine",
        "apply": "engine",
        "breakdown": "engine",
        "catalog": "engine",
        "credit": "engine",
        "least_acclaimed": "engine",
        "match": "engine",
        "most_acclaimed": "engine",
        "new_game": "engine",
        "rank": "engine",
        "spectacle_by_key": "engine",
        "star_count": "engine",
        "to_act": "engine",
        "why_not_performable": "engine",
        "RuleError": "errors",
        "BidOption": "legal",
        "Choices": "legal",
        "legal": "legal",
        "may_propose": "legal",
        "performable": "legal",
        "Event": "model",
        "GameSetup": "model",
        "Player": "model",
        "Result": "model",
        "State": "model",
        "Transfer": "model",
        "ANY_SEAT_ACTIONS": "queries",
        "gate_owner": "queries",
        "landing": "queries",
        "missing": "queries",
        "missings": "queries",
        "next_stars": "queries",
        "safe_action": "queries",
        "star_holder": "queries",
        "star_need": "queries",
        "stars_after": "queries",
        "stars_held": "queries",
        "decode_state": "serial",
        "encode_state": "serial",
        "replay": "serial",
    }
    #: the submodules importing this package used to load (``colosseum.core.engine`` etc. without
    #: importing them by name)
    _SUBMODULES = frozenset(
        ("actions", "choices", "context", "engine", "errors", "legal", "model", "phases", "queries", "rng", "serial")
    )

    def __getattr__(name: str) -> Any:
        where = _WHERE.get(name)
        if where is not None:
            value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
        elif name in _SUBMODULES:
            value = importlib.import_module(f"{__name__}.{name}")
        else:
            # the action classes (``from .actions import *`` once): every public name of actions
            if name.startswith("_"):
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            actions = importlib.import_module(f"{__name__}.actions")
            if name not in vars(actions):
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
            value = getattr(actions, name)
        globals()[name] = value
        return value


__all__ = [
    "ACTION_TYPES",
    "ANY_SEAT_ACTIONS",
    "Action",
    "BidOption",
    "Breakdown",
    "Catalog",
    "CatalogError",
    "Choices",
    "Event",
    "GameSetup",
    "Player",
    "Result",
    "RuleError",
    "Spectacle",
    "State",
    "Transfer",
    "apply",
    "breakdown",
    "catalog",
    "credit",
    "decode_action",
    "decode_state",
    "encode_action",
    "encode_state",
    "gate_owner",
    "landing",
    "least_acclaimed",
    "legal",
    "load_catalog",
    "match",
    "may_propose",
    "missing",
    "missings",
    "most_acclaimed",
    "new_game",
    "next_stars",
    "performable",
    "rank",
    "replay",
    "safe_action",
    "spectacle_by_key",
    "star_count",
    "star_holder",
    "star_need",
    "stars_after",
    "stars_held",
    "to_act",
    "why_not_performable",
]
