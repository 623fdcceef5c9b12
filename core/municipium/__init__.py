"""Municipium (Reiner Knizia), a second game on the Colosseum engine's discipline.

Rule ids M-0…M-13 refer to docs/rules.md (decisions DM-n in docs/decisions.md).

Modules: ``catalog`` (data from core/data/municipium.toml), ``model`` (state, frames),
``actions`` (tagged union), ``board`` (influence, ranking, the working copy ``Ctx``),
``engine`` (setup, turn, card drivers, end), ``events`` (governor and citizen events, sets),
``powers`` (the seven institutions), ``moves`` (the turn's move), ``legal``, ``invariants``,
``serial`` (JSON, replay), ``simulate`` (``play_game``), ``bots`` (random, greedy).

Public API::

    from colosseum.core.municipium import MuniSetup, new_game, to_act, legal, apply
    state = new_game(MuniSetup(players=("Ann", "Bo", "Cy"), seed=7))
    state, events = apply(state, legal(state)[0])
"""

from .actions import ACTION_TYPES, MuniAction, Path, decode_action, encode_action
from .catalog import MuniCatalog, MuniCatalogError, load_catalog
from .engine import apply, final_result, new_game, target, to_act
from .legal import legal
from .model import OPTION_SHORT, OPTION_SINGLE, OPTIONS, Event, MuniSetup, Result, State
from .serial import decode_state, encode_state, replay

__all__ = [
    "ACTION_TYPES",
    "OPTIONS",
    "OPTION_SHORT",
    "OPTION_SINGLE",
    "Event",
    "MuniAction",
    "MuniCatalog",
    "MuniCatalogError",
    "MuniSetup",
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
