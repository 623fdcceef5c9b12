"""The seed-search attack: recover a game's chance from what a player sees, then predict it.

A player at a server table sees the setup without its seed, the actions, and the state as a
player may see it (``player_view``).  If the game's chance comes from a small seed (the old
server drew ``randrange(2**31)``), the player can try every seed: replay the public actions on
each candidate and keep those whose view matches what was seen.  One survivor means every roll
and draw to come is known.  Server games now draw from a secret of 256 bits with a keyed hash
(``colosseum.core.rng``): there is no seed to search, and this script must find nothing.

    python scripts/seed_search.py --seeds 200000                 # a demonstration, both ways
    python scripts/seed_search.py --log TABLE.jsonl --at 4 --seeds 2000000 [--seat 0]

The demonstration plays the first ``--at`` actions (the starting gates) of two games: one seeded
with a number below ``--seeds`` (as the old server, in a smaller space), one with a secret (as
the server now), and searches seeds ``0 .. --seeds-1`` against each player's view.  With
``--log`` it searches against the view of seat ``--seat`` after ``--at`` actions of a real log.
It prints the seeds found and the time taken (a pure-Python search: about 10,000 seeds a second
on one core after the cheap first-player filter; the old seed space, 2**31, is a numpy job).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import msgspec

from colosseum.core import rng
from colosseum.core.games.colosseum import GameSetup, apply, new_game, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.view import player_view


def view_after(setup: GameSetup, actions: Sequence[object]) -> bytes:
    """What a player is sent after ``actions``: the encoded player's view."""
    state = new_game(setup)
    for a in actions:
        state, _ = apply(state, a)
    return msgspec.json.encode(player_view(state))


def search(public: GameSetup, actions: Sequence[object], seen: bytes, seeds: range) -> list[int]:
    """Every seed in ``seeds`` under which ``actions`` on ``public`` (a setup as the players see
    it: seed 0, no secret) give exactly the view ``seen``."""
    n = len(public.players)
    seen_first = msgspec.json.decode(seen)["first"]
    found = []
    for seed in seeds:
        if public.first_player is None:
            # a cheap filter: the first player is the generator's first draw (G-1.4)
            _, first = rng.below(rng.seed_state(seed), n)
            if first != seen_first:
                continue
        candidate = msgspec.structs.replace(public, seed=seed, secret="")
        try:
            if view_after(candidate, actions) == seen:
                found.append(seed)
        except Exception:  # noqa: BLE001 - an action illegal under this candidate: not the seed
            continue
    return found


def opening(setup: GameSetup, count: int) -> list[object]:
    """The first ``count`` actions of a game of normal bots (the starting gates, then more)."""
    state = new_game(setup)
    bots = [make_bot("normal", seed=i) for i in range(len(setup.players))]
    actions: list[object] = []
    while len(actions) < count and to_act(state) >= 0:
        a = bots[to_act(state)].act(state)
        state, _ = apply(state, a)
        actions.append(a)
    return actions


def attack(setup: GameSetup, at: int, seeds: range) -> tuple[list[int], float]:
    """Search ``seeds`` against the public view of ``setup``'s game after ``at`` actions."""
    actions = opening(setup, at)
    seen = view_after(setup, actions)
    public = msgspec.structs.replace(setup, seed=0, secret="")
    start = time.perf_counter()
    found = search(public, actions, seen, seeds)
    return found, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20_000, help="seeds to try: 0 .. N-1 (the size flag)")
    ap.add_argument("--at", type=int, default=4, help="actions seen before the search (4: the starting gates)")
    ap.add_argument("--log", default=None, help="a game log (a server table's): search against its view")
    ap.add_argument("--seat", type=int, default=0, help="whose view (with --log)")
    args = ap.parse_args(argv)
    seeds = range(args.seeds)
    if args.log:
        from colosseum.core.logread import read_log

        log = read_log(args.log)
        setup = log.setup
        actions = log.actions[: args.at]
        seen = view_after(setup, actions)
        public = msgspec.structs.replace(setup, seed=0, secret="")
        start = time.perf_counter()
        found = search(public, actions, seen, seeds)
        kind = "keyed (secret)" if setup.secret else f"seed {setup.seed}"
        print(f"{args.log}: chance {kind}; {len(seeds)} seeds in {time.perf_counter() - start:.1f} s: found {found}")
        return 0 if not found else 1
    names = ("Becky", "Kat", "Laura", "Marcus")
    hidden_seed = (args.seeds * 7) // 10  # somewhere in the searched space
    old = GameSetup(players=names, seed=hidden_seed)
    new = GameSetup(players=names, seed=0, secret=rng.new_secret())
    found_old, t_old = attack(old, args.at, seeds)
    found_new, t_new = attack(new, args.at, seeds)
    print(f"seeded game (seed {hidden_seed}): {len(seeds)} seeds in {t_old:.1f} s, found {found_old}")
    print(f"server game (256-bit secret): {len(seeds)} seeds in {t_new:.1f} s, found {found_new}")
    return 0 if hidden_seed in found_old and not found_new else 1


if __name__ == "__main__":
    sys.exit(main())
