"""Every game's ``apply`` against its own ``legal_actions``, through the game interface alone.

``scripts/fuzz.py`` knows Colosseum's actions; this one knows no game.  Random and normal bots
play seeded games of every registered game; at some positions it takes listed actions (and
stale ones, listed earlier in the game), changes one field of each (a number by a little or to
a stray value, a flag flipped, a word swapped for another the game uses, a list cut, grown or
reversed, or a value of another type), encodes it as JSON and decodes it with the game's own
codec, as a move from a client is, and applies it.  Then:

* ``apply`` refuses with ``RuleError`` or accepts; anything else it raises is a **crash**;
* an accepted action of a kind the game lists in that position must be listed, or have the
  effect of a listed one (a two-member move given in the other order): else **unlisted** (a
  kind the game never lists, such as Colosseum's deal proposals, whose terms are free, is
  ``apply``'s alone to judge, as the interface says).

    python scripts/fuzz_offers.py [--games 10] [--seed 1] [--game NAME] [--tries 20]

Prints one line per game and the first case of each kind of failure, with a reproducer; the exit
status is 1 when anything failed.  tests/core/test_conformance.py runs it small over every game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.registry import game_names, rules, spec

#: a step of a game where mutated actions are tried (the others are only played)
SHARE = 0.3
MAX_STEPS = 5000
STALE = 50


@dataclass
class Report:
    game: str
    games: int = 0
    positions: int = 0
    tried: int = 0
    decoded: int = 0
    accepted: int = 0
    equivalent: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    first: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def line(self) -> str:
        bad = ", ".join(f"{k} {v}" for k, v in sorted(self.failures.items())) or "no failures"
        return (
            f"{self.game}: {self.games} games, {self.positions} positions, {self.tried} changed actions, "
            f"{self.decoded} decoded, {self.accepted} accepted ({self.equivalent} another form of a listed one); "
            f"{bad}"
        )


def _leaves(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place in a decoded action but its tag: (path, value)."""
    out: list[tuple[tuple[Any, ...], Any]] = []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for k, v in items:
        if k == "a" and not at:
            continue
        out.append(((*at, k), v))
        out += _leaves(v, (*at, k))
    return out


def full_builtins(value: Any) -> Any:
    """``value`` as builtins with every field, those at their default too (the codec leaves
    those out, and a field not there cannot be changed)."""
    if isinstance(value, msgspec.Struct):
        out = msgspec.to_builtins(value)
        for name in value.__struct_fields__:
            out[name] = full_builtins(getattr(value, name))
        return out
    if isinstance(value, (tuple, list)):
        return [full_builtins(v) for v in value]
    return msgspec.to_builtins(value)


def mutate(obj: Any, rng: random.Random, words: list[str]) -> Any:
    """``obj`` (an action as builtins) with one field changed."""
    obj = msgspec.json.decode(msgspec.json.encode(obj))
    places = _leaves(obj)
    if not places:
        return obj
    path, value = rng.choice(places)
    parent = obj
    for p in path[:-1]:
        parent = parent[p]
    new: Any = value
    if rng.random() < 0.15:  # a value of another JSON type (a flag for a number: msgspec's pitfall)
        new = rng.choice([True, False, None, 1, -1, 1.5, "1", "", [], {}, [1], {"a": 1}])
    elif isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = rng.choice([value - 1, value + 1, value + 2, value - 2, 0, -1, -3, 99, rng.randrange(-3, 12)])
    elif isinstance(value, str):
        new = rng.choice([*words, "", "zz"])
    elif isinstance(value, list) and value:
        r = rng.random()
        new = value[:-1] if r < 0.3 else [*value, rng.choice(value)] if r < 0.6 else value[::-1]
    parent[path[-1]] = new
    return obj


def _words(actions: list[Any]) -> list[str]:
    found: set[str] = set()

    def walk(o: Any) -> None:
        if isinstance(o, str):
            found.add(o)
        elif isinstance(o, dict):
            for k, v in o.items():
                if k != "a":
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for a in actions:
        walk(msgspec.to_builtins(a))
    return sorted(found)


def fuzz_game(name: str, games: int, seed: int, tries: int = 20) -> Report:
    game = rules(name)
    found = spec(name)
    rng = random.Random(f"{name}:{seed}")
    report = Report(name)
    for g in range(games):
        n = rng.choice(found.player_counts)
        game_seed = seed * 1000 + g
        state = game.new_game(found.make_setup(found.default_names[:n], seed=game_seed))
        levels = [rng.choice(["random", "normal"]) for _ in range(n)]
        bots = [game.make_bot(level, game_seed * 10 + i) for i, level in enumerate(levels)]
        stale: list[Any] = []
        words: set[str] = set()
        report.games += 1
        step = 0
        while game.to_act(state) >= 0 and step < MAX_STEPS:
            listed = list(game.legal_actions(state))
            if rng.random() < SHARE:
                report.positions += 1
                words.update(_words(listed[:40]))
                _try(game, state, listed, stale, sorted(words), rng, tries, report, (name, n, game_seed, levels, step))
            stale = (stale + listed[:5])[-STALE:]
            state, _ = game.apply(state, bots[game.to_act(state)].act(state))
            step += 1
    return report


def _try(
    game: Any,
    state: Any,
    listed: list[Any],
    stale: list[Any],
    words: list[str],
    rng: random.Random,
    tries: int,
    report: Report,
    where: tuple[Any, ...],
) -> None:
    encoded = {game.encode(a) for a in listed}
    kinds = {type(a) for a in listed}
    pool = listed + stale
    for _ in range(tries):
        obj = mutate(full_builtins(rng.choice(pool)), rng, words)
        report.tried += 1
        try:
            action = game.decode_action(msgspec.json.encode(obj))  # as a move arrives from a client
        except msgspec.DecodeError:  # (ValidationError is one)
            continue
        report.decoded += 1
        try:
            after, _ = game.apply(state, action)
        except RuleError:
            continue
        except Exception as e:  # noqa: BLE001 - the very thing looked for
            _fail(report, f"crash {type(e).__name__}", where, action, repr(e))
            continue
        report.accepted += 1
        if type(action) not in kinds or game.encode(action) in encoded:
            continue
        done = game.encode(after)
        if any(type(b) is type(action) and game.encode(game.apply(state, b)[0]) == done for b in listed):
            report.equivalent += 1
            continue
        _fail(report, f"unlisted {type(action).__name__}", where, action, "listed: " + repr(listed[:6]))


def _fail(report: Report, kind: str, where: tuple[Any, ...], action: Any, detail: str) -> None:
    report.failures[kind] += 1
    if kind not in report.first:
        name, n, game_seed, levels, step = where
        report.first[kind] = (
            f"{kind}: {action!r} ({detail})\n"
            f"    game {name!r}, {n} players, setup seed {game_seed}, bots {levels} (bot seeds setup seed * 10 + seat), "
            f"after {step} actions"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games of each game (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (again for more); default every one")
    parser.add_argument("--tries", type=int, default=20, help="changed actions at a position (default 20)")
    args = parser.parse_args(argv)
    ok = True
    for name in args.game or game_names():
        report = fuzz_game(name, args.games, args.seed, args.tries)
        print(report.line(), flush=True)
        for text in report.first.values():
            print("  " + text)
        ok = ok and report.ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
