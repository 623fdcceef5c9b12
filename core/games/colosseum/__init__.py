"""Colosseum (Kramer & Lübke): The Grand Spectacle, its classic mode, the 2007 auction option and
the original 2007 edition.  The rules engine as one package: frozen msgspec Structs,
``apply(state, action)``, ``legal()``, ``to_act()``, its bots and its data.

Public API (loaded when first used, PEP 562: the menus that only name the game load nothing)::

    from colosseum.core.games.colosseum import GameSetup, new_game, to_act, legal, apply, RuleError
    state = new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=7))
    choices = legal(state)                   # what the player to act may do
    state, events = apply(state, choices.actions[0])
    data = encode_state(state); decode_state(data) == state

Modules: ``model`` (the state), ``actions``, ``components`` (tiles, spectacles, rulesets from
``data/``), ``engine`` (the dispatcher), ``phases/`` (each phase's handlers and offers),
``offers`` (``legal``), ``queries`` (the rule queries bots and dialogs share), ``bots/``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from colosseum.core.errors import RuleError
    from colosseum.core.events import Event
    from colosseum.core.games.colosseum.actions import *  # noqa: F403  (the action classes)
    from colosseum.core.games.colosseum.actions import ACTION_TYPES, Action, decode_action, encode_action
    from colosseum.core.games.colosseum.choices import BidOption, Choices
    from colosseum.core.games.colosseum.components import Catalog, CatalogError, Spectacle, load_catalog
    from colosseum.core.games.colosseum.engine import apply, to_act
    from colosseum.core.games.colosseum.model import GameSetup, Player, Result, State, Transfer
    from colosseum.core.games.colosseum.offers import legal, safe_action
    from colosseum.core.games.colosseum.phases.perform import performable
    from colosseum.core.games.colosseum.phases.setup import new_game
    from colosseum.core.games.colosseum.phases.trade import may_propose
    from colosseum.core.games.colosseum.queries import (
        ANY_SEAT_ACTIONS,
        Breakdown,
        breakdown,
        catalog,
        credit,
        gate_owner,
        landing,
        least_acclaimed,
        match,
        missing,
        missings,
        most_acclaimed,
        next_stars,
        rank,
        spectacle_by_key,
        star_count,
        star_holder,
        star_need,
        stars_after,
        stars_held,
        why_not_performable,
    )
    from colosseum.core.games.colosseum.serial import decode_state, encode_state, replay

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

_HERE = __name__
#: where each public name lives: the module that defines it (one door to each room)
_WHERE: dict[str, str] = {
    "RuleError": "colosseum.core.errors",
    "Event": "colosseum.core.events",
    **dict.fromkeys(("ACTION_TYPES", "Action", "decode_action", "encode_action"), f"{_HERE}.actions"),
    **dict.fromkeys(("BidOption", "Choices"), f"{_HERE}.choices"),
    **dict.fromkeys(("Catalog", "CatalogError", "Spectacle", "load_catalog"), f"{_HERE}.components"),
    **dict.fromkeys(("apply", "to_act"), f"{_HERE}.engine"),
    **dict.fromkeys(("GameSetup", "Player", "Result", "State", "Transfer"), f"{_HERE}.model"),
    **dict.fromkeys(("legal", "safe_action"), f"{_HERE}.offers"),
    "performable": f"{_HERE}.phases.perform",
    "new_game": f"{_HERE}.phases.setup",
    "may_propose": f"{_HERE}.phases.trade",
    **dict.fromkeys(
        (
            "ANY_SEAT_ACTIONS",
            "Breakdown",
            "breakdown",
            "catalog",
            "credit",
            "gate_owner",
            "landing",
            "least_acclaimed",
            "match",
            "missing",
            "missings",
            "most_acclaimed",
            "next_stars",
            "rank",
            "spectacle_by_key",
            "star_count",
            "star_holder",
            "star_need",
            "stars_after",
            "stars_held",
            "why_not_performable",
        ),
        f"{_HERE}.queries",
    ),
    **dict.fromkeys(("decode_state", "encode_state", "replay"), f"{_HERE}.serial"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None and not name.startswith("_"):
        # the action classes: every public name of ``actions``
        actions = importlib.import_module(f"{_HERE}.actions")
        if name in vars(actions):
            where = f"{_HERE}.actions"
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value
