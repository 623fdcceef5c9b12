"""Bots: players that see only what the engine offers (``legal``, ``apply``, the state).

``make_bot(name, seed, think=None)`` builds one by name; ``BOTS`` lists the names.  The levels
offered to players are ``easy``, ``normal``, ``hard`` and ``expert`` (:data:`LEVELS`); ``random``
is for tests and ``greedy`` is another name for ``normal`` (older game logs name it, so resuming
them keeps working).  ``hard`` and ``expert`` are the shared search (:mod:`colosseum.core.search`)
on Colosseum's candidates; ``think`` is their time budget per decision in seconds (default 1 s);
the other levels answer at once and ignore it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum.actions import Action, ProposeDeal
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import check_deal
from colosseum.core.games.colosseum.model import State

__all__ = ["ALIASES", "BOTS", "LEVELS", "Bot", "deal_offer", "level_of", "make_bot"]


class Bot(Protocol):
    name: str

    def act(self, state: State) -> Action:
        """The bot's action in ``state``, where it is the player to act."""
        ...


def _random(seed: int, think: float | None = None) -> Bot:
    from colosseum.core.games.colosseum.bots.random_bot import RandomBot

    return RandomBot(seed)


def _easy(seed: int, think: float | None = None) -> Bot:
    from colosseum.core.games.colosseum.bots.easy import EasyBot

    return EasyBot(seed)


def _greedy(seed: int, think: float | None = None) -> Bot:
    from colosseum.core.games.colosseum.bots.greedy import GreedyBot

    return GreedyBot(seed)


def _hard(seed: int, think: float | None = None) -> Bot:
    from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

    RULES = rules("colosseum")

    # with no budget given the search thinks DEFAULT_THINK seconds a decision
    bot: Bot = RULES.search_bot("hard", seed, think)
    return bot


def _expert(seed: int, think: float | None = None) -> Bot:
    from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

    RULES = rules("colosseum")

    bot: Bot = RULES.search_bot("expert", seed, think)
    return bot


#: Bot factories by name: ``factory(seed)``, or ``factory(seed, think)`` for a time budget.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": _random,
    "easy": _easy,
    "normal": _greedy,
    "greedy": _greedy,
    "hard": _hard,
    "expert": _expert,
}

#: The difficulty levels offered to players, weakest first.
LEVELS = ("easy", "normal", "hard", "expert")

#: Other names of a level: old names kept so that saved games and logs still load.
ALIASES = {"greedy": "normal"}


def level_of(name: str) -> str:
    """The level (or ``random``) a bot name stands for: ``greedy`` is ``normal``."""
    return ALIASES.get(name, name)


def make_bot(name: str, seed: int = 0, think: float | None = None) -> Bot:
    """The bot called ``name`` (a key of BOTS), seeded with ``seed``.  The bot's ``name`` is the
    name asked for (``greedy`` and ``normal`` are the same bot under two names)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None
    bot = factory(seed) if think is None else factory(seed, think)
    if bot.name != name:
        bot.name = name
    return bot


def deal_offer(bot: object, state: State, seat: int) -> ProposeDeal | None:
    """The deal ``seat``'s bot offers the active player of a trade turn (G-4: anyone may
    propose to the active player), or None: a counter-offer to the deal the active player has
    just had rejected by it, else its valuation's best deal, only when that deal is
    between the two of them and the rules allow it.  The levels above and below ``normal``
    judge deals as it does; a bot without a valuation (``random``) offers nothing."""
    t = state.trade
    if state.phase != "trade" or t is None or t.deal is not None or seat == t.active:
        return None
    judge = getattr(bot, "policy", None) or getattr(bot, "greedy", bot)
    best = getattr(judge, "best_deal", None)
    if best is None:
        return None
    cat = load_catalog(state.setup.variant)
    counter = getattr(judge, "counter_offer", None)
    deal = counter(state, cat, seat) if counter is not None else None  # D-69: the deal it just rejected, edited
    if deal is None:
        deal = best(state, cat, seat)
    if not deal or {p for tr in deal for p in (tr.giver, tr.receiver)} != {seat, t.active}:
        return None
    try:
        check_deal(state, deal, seat)
    except RuleError:
        return None
    return ProposeDeal(player=seat, transfers=deal)
