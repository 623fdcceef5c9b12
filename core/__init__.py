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
"""

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
