"""What a seat could foresee: whether the position after an action is what that seat would work
out from its own view of the position before (``Rules.player_view``) and the action.

Where it is not, chance decided something or something hidden came to light for that seat (a
die, a draw, a tile turned up, a card from a deck whose order is hidden).  Two things at a table
rest on it, for any game: a seat's take-back stops there (even where a game's
``Rules.chance_between`` does not see a draw from an ordered deck), and the review sends a
client that position as it sees it (``Positions.keys``), since the client could not replay to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from colosseum.core.events import Event
from colosseum.core.game import Rules
from colosseum.core.gamelog import reseeded
from colosseum.core.options import SetupBase

from . import protocol as P


def foreseen(rules: Rules[Any, Any, Any], seen_before: Any, action: Any, seen_after: Any, seat: int | None) -> bool:
    """Whether ``seat``, having seen ``seen_before`` (its view), can work out ``seen_after``
    (its view of the next position) by applying ``action`` to what it saw."""
    try:
        worked_out = rules.player_view(rules.apply(seen_before, action)[0], seat)
    except Exception:  # noqa: BLE001 - a view may lack what the real move needs (a hidden tile): not foreseen
        return False
    return bool(worked_out == seen_after)


def seen_setup(setup: SetupBase) -> SetupBase:
    """A game's setup as players may see it: no seed, no secret."""
    if not setup.seed and not setup.secret:
        return setup
    return msgspec.structs.replace(setup, seed=0, secret="")


def positions(
    rules: Rules[Any, Any, Any],
    setup: SetupBase,
    actions: Sequence[Any],
    events_of: Callable[[int], list[Event]],
    seat: int | None,
    *,
    table: str,
    start: int = 0,
    budget: int = P.REVIEW_BUDGET,
    ref: int = 0,
    reseed: tuple[int, int] | None = None,
) -> P.Positions:
    """The game so far as ``seat`` sees it, from position ``start``: the actions, their events
    and the positions that seat could not replay to (the first one always), at most about
    ``budget`` bytes of them (``next``: where the rest begins).  The game is replayed from its
    setup (the server's: it holds the chance), a few milliseconds for a whole game; ``reseed``:
    a fork's new chance from its fork point (``core.gamelog.Header.reseed_point``)."""
    codec = P.Codec(rules)
    n = len(actions)
    start = max(0, min(start, n))
    state = reseeded(rules.new_game(setup), 0, reseed)
    seen = rules.player_view(state, seat)
    keys: list[P.Position] = []
    out_actions: list[bytes] = []
    out_events: list[list[Event]] = []
    size = 0
    if start == 0:
        keys.append(P.Position(at=0, state=codec.pack(seen)))
        size = len(keys[0].state)
    stop = -1

    def key(at: int, view: Any) -> None:
        nonlocal size
        keys.append(P.Position(at=at, state=codec.pack(view)))
        size += len(keys[-1].state)

    for k, action in enumerate(actions):
        state = reseeded(rules.apply(state, action)[0], k + 1, reseed)
        after = rules.player_view(state, seat)
        if k >= start:
            if size >= budget:
                stop = k
                break
            if k == start and start > 0:  # a later page starts from a position of its own
                key(k, seen)
            out_actions.append(codec.pack(action))
            out_events.append(events_of(k))
            size += len(out_actions[-1]) + sum(len(e.text) + 16 for e in out_events[-1])
            if not foreseen(rules, seen, action, after, seat):
                key(k + 1, after)
        seen = after
    return P.Positions(
        table=table,
        ref=ref,
        n=n,
        start=start,
        setup=codec.pack(seen_setup(setup)),
        actions=out_actions,
        events=out_events,
        keys=keys,
        next=stop,
        seat=-1 if seat is None else seat,
    )
