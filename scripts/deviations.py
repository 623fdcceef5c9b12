"""Where a search bot leaves its policy's choice: how far ``normal`` (every seat of the search's
playouts) is from how the search levels really play.

Seeded games with a search level at every seat (a node budget: the choices do not depend on the
machine); at each decision the search compared candidates for, the policy's own choice (asked of
a twin, so the bot is untouched) against the one played.  Prints, per phase, the decisions and
how many left the policy's choice, and the commonest changes by kind of action.

    python scripts/deviations.py [--game colosseum] [--level hard] [--games 5] [--playouts 100] [--seed 1]

The search's playouts model every seat as ``normal``: the more ``hard`` differs from ``normal``,
the less a search that models three ``hard`` opponents as ``normal`` knows about them (issue 29's
``expert`` row, README's strength section).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from colosseum.core.registry import rules, spec
from colosseum.core.search import twin_of


class Watched:
    def __init__(self, bot: Any, seen: list[tuple[str, str, str]]) -> None:
        self.bot = bot
        self.seen = seen

    def act(self, state: Any) -> Any:
        first = twin_of(self.bot.policy).act(state)
        chosen = self.bot.act(state)
        if self.bot.last_playouts:  # a decision with a real choice
            self.seen.append(
                (str(getattr(state, "phase", "-")), _kind(first), _kind(chosen) if chosen != first else "")
            )
        return chosen


def _kind(action: Any) -> str:
    return type(action).__name__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="colosseum")
    parser.add_argument("--level", default="hard", choices=("hard", "expert"))
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=100, help="playouts a decision (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=0, help="default: the game's usual count")
    args = parser.parse_args(argv)
    game = rules(args.game)
    found = spec(args.game)
    n = args.players or found.default_players
    seen: list[tuple[str, str, str]] = []
    for s in range(args.seed, args.seed + args.games):
        bots = [Watched(game.search_bot(args.level, s * 31 + i, None, playouts=args.playouts), seen) for i in range(n)]
        state = game.new_game(found.make_setup(found.default_names[:n], seed=s))
        t0 = time.perf_counter()
        while (seat := game.to_act(state)) >= 0:
            state, _ = game.apply(state, bots[seat].act(state))
        print(f"game {s}: scores {game.scores(state)} ({time.perf_counter() - t0:.0f} s)", flush=True)
    total = Counter(p for p, _, _ in seen)
    left = Counter(p for p, _, c in seen if c)
    print(
        f"\n{args.level} at every seat, {args.playouts} playouts a decision, {args.games} games: "
        f"{len(seen)} decisions with a choice, {sum(left.values())} left normal's "
        f"({100 * sum(left.values()) / max(1, len(seen)):.0f}%)"
    )
    for phase, count in total.most_common():
        changes = Counter(f"{f} -> {c}" for p, f, c in seen if p == phase and c)
        top = ", ".join(f"{k} {v}" for k, v in changes.most_common(3))
        print(f"  {phase:<10} {left[phase]:>4} of {count:<4} {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
