"""Municipium bots: players that see only what the engine offers (``legal``, ``apply``, the
public state).  ``make_bot(name, seed)`` builds one by name; ``BOTS`` lists the names, the same
levels as Colosseum's (``random``, ``greedy``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.model import State


class MuniBot(Protocol):
    name: str

    def act(self, state: State) -> MuniAction:
        """The bot's action in ``state``, where it is the player to act."""
        ...


def _random(seed: int) -> MuniBot:
    from colosseum.core.games.municipium.bots.random_bot import RandomBot

    return RandomBot(seed)


def _greedy(seed: int) -> MuniBot:
    from colosseum.core.games.municipium.bots.greedy import GreedyBot

    return GreedyBot(seed)


BOTS: dict[str, Callable[[int], MuniBot]] = {"random": _random, "greedy": _greedy}
#: level names shared with Colosseum's bots: `normal` is greedy (there is no easy or hard here yet)
ALIASES = {"normal": "greedy"}


def make_bot(name: str, seed: int = 0) -> MuniBot:
    try:
        factory = BOTS[ALIASES.get(name, name)]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed)
