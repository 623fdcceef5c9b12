"""The hint (``Rules.hint``): the ``hard`` search's analysis of the decision in front of a seat,
as a line of the game's log (the choice and the next best two, each with the share of its
playouts won and the mean final score).  No game is named here (import-linter)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from colosseum.core.search import DEFAULT_THINK, SearchBot

if TYPE_CHECKING:
    from colosseum.core.game import Rules
    from colosseum.core.gamelog import HintLine, HintOption

__all__ = ["HINT_OPTIONS", "hint_line", "hint_sentence", "position_seed"]


#: the bot's choice and the next best two
HINT_OPTIONS = 3


def position_seed(rules: Rules[Any, Any, Any], state: Any) -> int:
    """A seed drawn from the position itself: the same position gives the same hint."""
    return int.from_bytes(hashlib.blake2b(rules.encode(state), digest_size=8).digest(), "big") >> 1


def hint_sentence(rules: Rules[Any, Any, Any], name: str, options: Sequence[HintOption], score: str = "") -> str:
    """One sentence for the log (and for readers that show a hint line as table talk); ``score``
    the edition's word for the score (``rules.score_name`` when not given)."""
    if not options:
        return f"Hint for {name}: no choice to compare."
    score = score or rules.score_name
    best = options[0]
    text = f"Hint for {name}: {best.text or rules.describe(best.action)}"
    if best.playouts:
        text += f" (wins {best.win:.0%} of {best.playouts} playouts, {score} {best.acclaim:.1f})"
    others = [o for o in options[1:] if o.playouts]
    if others:
        text += "; next: " + "; ".join(
            f"{o.text or rules.describe(o.action)} ({o.win:.0%}, {score} {o.acclaim:.1f})" for o in others
        )
    return text + "."


def hint_line(
    rules: Rules[Any, Any, Any],
    state: Any,
    *,
    think: float | None = DEFAULT_THINK,
    playouts: int | None = None,
    seed: int | None = None,
    when: float | None = None,
) -> HintLine:
    """The ``hard`` search's answer for the seat to act in ``state``: its choice and the next
    best, each with the share of its playouts won and the mean final score.  Within ``think``
    seconds, or ``playouts`` playouts a decision (reproducible: ``seed`` defaults to one drawn
    from the position).  Changes nothing it is given; ValueError when the game is over."""
    from colosseum.core.gamelog import HintLine, HintOption  # (the log's line types)

    seat = rules.to_act(state)
    if seat < 0:
        raise ValueError("the game is over: no decision to hint at")
    if seed is None:
        seed = position_seed(rules, state)
    bot = SearchBot(rules, seed, think=think if playouts is None else None, playouts=playouts)
    found = bot.analyse_detail(state)
    # after the choice, the best measured first: a candidate the search played out to the end
    # (its finalist) before one it dropped after a couple of playouts, whose share is noise
    found = [found[0], *sorted(found[1:], key=lambda c: (-c.playouts, -c.score))][:HINT_OPTIONS]
    options = tuple(
        HintOption(
            action=c.action,
            text=rules.action_text(state, c.action),
            win=round(c.win_share, 4),
            acclaim=round(c.points, 2),
            score=round(c.score, 4),
            playouts=c.playouts,
        )
        for c in found
    )
    name = rules.names(state)[seat]
    return HintLine(
        chat=hint_sentence(rules, name, options, rules.score_word(state)),
        name="hint",
        seat=seat,
        time=time.time() if when is None else when,
        after=getattr(state, "actions", 0),
        hint=options,
    )
