"""Where each player's Acclaim came from (the end screen's and the export's score sheet).

A player's Acclaim is their best performance (G-5.3: the marker moves only when a performance
beats it) plus, in The Grand Spectacle, the Aquilas returned at the end (G-9).  The sheet breaks
the best performance into its parts (the spectacle, earlier performances, Star Performers,
nobles at the gates, promoters, gifts, Aquilas spent) as the engine computed it, adds the end's
Aquilas, and then shows the game's other figures: each round's performance, the coins won and
spent (auctions, investments, deals), the performers stolen.  The original 2007 edition's words
are its own (season tickets, podiums, medals).
"""

from __future__ import annotations

from collections.abc import Sequence

from colosseum.core.events import Event
from colosseum.core.game import ScoreLine, ScoreSheet
from colosseum.core.games.colosseum.actions import Action, Perform, Steal
from colosseum.core.games.colosseum.model import State
from colosseum.core.games.colosseum.queries import breakdown, catalog, spectacle_by_key

__all__ = ["score_sheet"]

#: the parts of a performance, as ``queries.breakdown`` lists them
PARTS = 7


def _title(word: str) -> str:
    return word[:1].upper() + word[1:]


def score_sheet(states: Sequence[State], actions: Sequence[Action], events: Sequence[Sequence[Event]]) -> ScoreSheet:
    final = states[-1]
    cat = catalog(final)
    n = final.n
    parts = [[0] * n for _ in range(PARTS)]
    best_note = ["did not perform"] * n
    best = [-1] * n  # the Acclaim of the performance that set the marker last
    per_round: dict[int, list[int]] = {}
    marker: dict[int, tuple[int, ...]] = {}  # each seat's Acclaim at the end of each round played
    items: list[tuple[int, str, int]] = []
    coins = {key: [0] * n for key in ("performances", "auctions", "investments", "deals")}
    stolen_from, stole = [0] * n, [0] * n
    for i, action in enumerate(actions):
        before, after = states[i], states[i + 1]
        seat = action.player
        if isinstance(action, Perform):
            spec = spectacle_by_key(cat, action.spectacle)
            b = breakdown(before, seat, spec, action.aquilas)
            per_round.setdefault(before.round, [0] * n)[seat] = b.total
            items.append((seat, cat.label(spec), b.total))
            if b.total > before.players[seat].acclaim:  # the marker moved: this is the best so far
                for k, (_, value) in enumerate(b.lines[:PARTS]):
                    parts[k][seat] = value
                best[seat] = b.total
                best_note[seat] = f"{cat.label(spec)}, round {before.round}"
        elif isinstance(action, Steal):
            stole[seat] += 1
            if before.closing is not None:
                stolen_from[before.closing.victim] += 1
        phase = before.phase
        marker[after.round] = tuple(p.acclaim for p in after.players)  # (the last action's: the end)
        for s in range(n):
            delta = after.players[s].coins - before.players[s].coins
            if not delta:
                continue
            if isinstance(action, Perform) and s == seat:
                coins["performances"][s] += delta
            elif phase == "hire" and delta < 0:
                coins["auctions"][s] -= delta
            elif phase == "invest" and delta < 0:
                coins["investments"][s] -= delta
            elif phase == "trade":
                coins["deals"][s] += delta
    acclaim = _title(cat.term("acclaim"))
    labels = (
        f"Best performance: the {cat.term('spectacle')}",
        "Best performance: earlier performances",
        f"Best performance: {cat.term('stars')}",
        f"Best performance: nobles at the {cat.term('gates')}",
        f"Best performance: {cat.term('promoters')}",
        f"Best performance: {cat.term('gifts')}",
        f"Best performance: {cat.term('aquilas')} spent",
    )
    lines = [
        ScoreLine(label=label, values=tuple(values), notes=tuple(best_note) if k == 0 else ())
        for k, (label, values) in enumerate(zip(labels, parts, strict=True))
    ]
    ended = tuple(final.players[s].acclaim - max(best[s], 0) for s in range(n))
    if any(ended):
        lines.append(ScoreLine(label=f"{_title(cat.term('aquilas'))} returned at the end", values=ended))
    for rnd in sorted(per_round):
        lines.append(ScoreLine(label=f"Performance in round {rnd}", values=tuple(per_round[rnd]), adds=False))
    lines += [
        ScoreLine(label="Coins from performances", values=tuple(coins["performances"]), adds=False),
        ScoreLine(label="Coins spent at auctions", values=tuple(coins["auctions"]), adds=False),
        ScoreLine(label="Coins spent on investments", values=tuple(coins["investments"]), adds=False),
        ScoreLine(label="Coins from deals (net)", values=tuple(coins["deals"]), adds=False),
        ScoreLine(label="Performers stolen from you", values=tuple(stolen_from), adds=False),
        ScoreLine(label="Performers you stole", values=tuple(stole), adds=False),
    ]
    rounds = sorted(marker)  # one value a round played, the last round's the end of the game
    series = tuple(tuple(marker[r][s] for r in rounds) for s in range(n))
    return ScoreSheet(
        score_name=acclaim,
        lines=tuple(lines),
        totals=tuple(p.acclaim for p in final.players),
        series=series,
        items=tuple(items),
    )
