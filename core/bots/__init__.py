"""Bots: players that see only what the engine offers (``legal``, ``apply``, the state).

``make_bot(name, seed)`` builds one by name; ``BOTS`` lists the names.
"""

from __future__ import annotations

from typing import Protocol

from colosseum.core.actions import Action
from colosseum.core.model import State


class Bot(Protocol):
    name: str

    def act(self, state: State) -> Action:
        """The bot's action in ``state``, where it is the player to act."""
        ...


def _random(seed: int) -> Bot:
    from .random_bot import RandomBot

    return RandomBot(seed)


def _greedy(seed: int) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(seed)


BOTS = {"random": _random, "greedy": _greedy}


def make_bot(name: str, seed: int = 0) -> Bot:
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed)
