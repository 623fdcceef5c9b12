"""Municipium (Reiner Knizia), the second game on the engine's discipline.

Rule ids M-0…M-13 refer to docs/rules.md (decisions DM-n in docs/decisions.md).

Modules: ``catalog`` (data from ``data/municipium.toml``), ``model`` (state, frames),
``actions`` (tagged union), ``board`` (influence, ranking, the working copy ``Ctx``),
``engine`` (setup, turn, card drivers, end), ``events`` (governor and citizen events, sets),
``powers`` (the seven institutions), ``moves`` (the turn's move), ``offers`` (``legal``),
``invariants``, ``serial`` (JSON, replay), ``bots`` (random, greedy).

Public API (loaded when first used, PEP 562)::

    from colosseum.core.games.municipium import MuniSetup, new_game, to_act, legal, apply
    state = new_game(MuniSetup(players=("Ann", "Bo", "Cy"), seed=7))
    state, events = apply(state, legal(state)[0])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from colosseum.core.events import Event
    from colosseum.core.games.municipium.actions import ACTION_TYPES, MuniAction, Path, decode_action, encode_action
    from colosseum.core.games.municipium.catalog import MuniCatalog, MuniCatalogError, load_catalog
    from colosseum.core.games.municipium.engine import apply, final_result, new_game, target, to_act
    from colosseum.core.games.municipium.model import OPTION_SHORT, OPTION_SINGLE, OPTIONS, MuniSetup, Result, State
    from colosseum.core.games.municipium.offers import legal
    from colosseum.core.games.municipium.serial import decode_state, encode_state, replay

__all__ = [
    "ACTION_TYPES",
    "Event",
    "MuniAction",
    "MuniCatalog",
    "MuniCatalogError",
    "MuniSetup",
    "OPTIONS",
    "OPTION_SHORT",
    "OPTION_SINGLE",
    "Path",
    "Result",
    "State",
    "apply",
    "decode_action",
    "decode_state",
    "encode_action",
    "encode_state",
    "final_result",
    "legal",
    "load_catalog",
    "new_game",
    "replay",
    "target",
    "to_act",
]

_HERE = __name__
_WHERE: dict[str, str] = {
    "Event": "colosseum.core.events",
    **dict.fromkeys(("ACTION_TYPES", "MuniAction", "Path", "decode_action", "encode_action"), f"{_HERE}.actions"),
    **dict.fromkeys(("MuniCatalog", "MuniCatalogError", "load_catalog"), f"{_HERE}.catalog"),
    **dict.fromkeys(("apply", "final_result", "new_game", "target", "to_act"), f"{_HERE}.engine"),
    **dict.fromkeys(("OPTION_SHORT", "OPTION_SINGLE", "OPTIONS", "MuniSetup", "Result", "State"), f"{_HERE}.model"),
    "legal": f"{_HERE}.offers",
    **dict.fromkeys(("decode_state", "encode_state", "replay"), f"{_HERE}.serial"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value
