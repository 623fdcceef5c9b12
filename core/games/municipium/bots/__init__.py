"""Municipium bots: players that see only what the engine offers (``legal``, ``apply``, the
public state).  ``make_bot(name, seed, think=None)`` builds one by name; ``BOTS`` lists the
names.  The levels are Colosseum's: ``easy`` (greedy's judgement, now and then a random legal
action), ``normal`` (``greedy``), ``hard`` and ``expert`` (the shared search,
:mod:`colosseum.core.search`, on greedy's best options; ``think`` seconds a decision, 1 s by
default); ``random`` is for tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.model import State

__all__ = ["ALIASES", "BOTS", "LEVELS", "MuniBot", "make_bot"]


class MuniBot(Protocol):
    name: str

    def act(self, state: State) -> MuniAction:
        """The bot's action in ``state``, where it is the player to act."""
        ...


def _random(seed: int, think: float | None = None) -> MuniBot:
    from colosseum.core.games.municipium.bots.random_bot import RandomBot

    return RandomBot(seed)


def _easy(seed: int, think: float | None = None) -> MuniBot:
    from colosseum.core.games.municipium.bots.easy import EasyBot

    return EasyBot(seed)


def _greedy(seed: int, think: float | None = None) -> MuniBot:
    from colosseum.core.games.municipium.bots.greedy import GreedyBot

    return GreedyBot(seed)


def _search(level: str) -> Callable[[int, float | None], MuniBot]:
    def factory(seed: int, think: float | None = None) -> MuniBot:
        from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

        RULES = rules("municipium")

        bot: MuniBot = RULES.search_bot(level, seed, think)
        return bot

    return factory


BOTS: dict[str, Callable[[int, float | None], MuniBot]] = {
    "random": _random,
    "easy": _easy,
    "greedy": _greedy,
    "hard": _search("hard"),
    "expert": _search("expert"),
}
#: the levels offered to players, weakest first
LEVELS = ("easy", "normal", "hard", "expert")
#: level names shared with Colosseum's bots: `normal` is greedy
ALIASES = {"normal": "greedy"}


def make_bot(name: str, seed: int = 0, think: float | None = None) -> Any:
    try:
        factory = BOTS[ALIASES.get(name, name)]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed, think)
