""" "What would the hard bot do here, and why?": a hint for the player to decide.

:func:`ask_hint` runs a fresh ``hard`` bot (:class:`SearchBot`) on a position and returns a
:class:`~colosseum.core.gamelog.HintLine`: the bot's choice first, then the next best two, each
with the share of the playouts won and the mean final Acclaim.  The bot is its own: seeded from
the game's seed and the position, so the same position gives the same hint on a node budget,
and neither the game's state nor the generators of the game's bots are touched (a hint never
changes the game).  It takes about its time budget: clients run it off their event loop.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from colosseum.core.errors import RuleError
from colosseum.core.gamelog import HintLine, HintOption, describe_action
from colosseum.core.games.colosseum.actions import ChooseDice
from colosseum.core.games.colosseum.bots.search import DEFAULT_THINK, CandidateStats, SearchBot
from colosseum.core.games.colosseum.engine import apply, to_act
from colosseum.core.games.colosseum.model import State

__all__ = ["HINT_OPTIONS", "ask_hint", "hint_sentence", "option_text"]

#: the bot's choice and the next best two
HINT_OPTIONS = 3


def option_text(state: State, stats: CandidateStats) -> str:
    """The action in words: what the engine would log for it, else a short description."""
    action = stats.action
    if isinstance(action, ChooseDice):  # the engine logs nothing for it
        name = state.players[action.player].name
        return f"{name} uses the dice {'one by one' if action.mode == 'split' else 'as a sum'}"
    try:
        _, events = apply(state, stats.action)
    except RuleError:
        return describe_action(stats.action)
    mine = [e.text for e in events if e.seat == stats.action.player] or [e.text for e in events[:1]]
    return mine[0].rstrip(".") if mine else describe_action(stats.action)


def hint_sentence(name: str, options: Sequence[HintOption]) -> str:
    """One sentence for the log (and for readers that show a hint line as table talk)."""
    if not options:
        return f"Hint for {name}: no choice to compare."
    best = options[0]
    text = f"Hint for {name}: {best.text or describe_action(best.action)}"
    if best.playouts:
        text += f" (wins {best.win:.0%} of {best.playouts} playouts, Acclaim {best.acclaim:.1f})"
    others = [o for o in options[1:] if o.playouts]
    if others:
        text += "; next: " + "; ".join(
            f"{o.text or describe_action(o.action)} ({o.win:.0%}, Acclaim {o.acclaim:.1f})" for o in others
        )
    return text + "."


def ask_hint(
    state: State,
    *,
    think: float | None = DEFAULT_THINK,
    playouts: int | None = None,
    seed: int | None = None,
    when: float | None = None,
) -> HintLine:
    """The hard bot's answer for the decision of the seat to act in ``state`` (within ``think``
    seconds, or ``playouts`` playouts a decision for a reproducible answer).  ``seed`` defaults
    to one drawn from the game's seed and the position.  Changes nothing it is given."""
    seat = to_act(state)
    if seat < 0:
        raise ValueError("the game is over: no decision to hint at")
    if seed is None:
        seed = (state.setup.seed * 1_000_003 + state.actions) & ((1 << 63) - 1)
    bot = SearchBot(seed, think=think if playouts is None else None, playouts=playouts)
    found = bot.analyse_detail(state)[:HINT_OPTIONS]
    options = tuple(
        HintOption(
            action=c.action,
            text=option_text(state, c),
            win=round(c.win_share, 4),
            acclaim=round(c.acclaim, 2),
            score=round(c.score, 4),
            playouts=c.playouts,
        )
        for c in found
    )
    name = state.players[seat].name
    return HintLine(
        chat=hint_sentence(name, options),
        name="hint",
        seat=seat,
        time=time.time() if when is None else when,
        after=state.actions,
        hint=options,
    )
