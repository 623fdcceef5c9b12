"""``colosseum serve admin ...``: what an operator does to the lobby's store, from a shell on
the server's machine (the data folder, or ``--database URL``).

    colosseum serve admin players [--blocked]          list the players (name, keys, blocked)
    colosseum serve admin block NAME [--why TEXT]      block a player (they cannot log in)
    colosseum serve admin unblock NAME
    colosseum serve admin ratings [--game GAME]        the ratings, best first, per game
    colosseum serve admin ratings --rebuild            rebuild every rating from the results
    colosseum serve admin export TABLE [FILE]          a table's log (several hosts) as a file

Each prints one line per thing done, or one line saying why not (exit status 1).  ``--data``
and ``--database`` are ``serve``'s own, given before or after ``admin``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from colosseum.tui.net.host.store import Store

__all__ = ["add_admin_arguments", "main"]


def add_admin_arguments(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: given before ``admin`` (serve's own options), they are not reset here
    parser.add_argument("--data", default=argparse.SUPPRESS, help="the server's data folder")
    parser.add_argument(
        "--database",
        default=argparse.SUPPRESS,
        metavar="URL",
        help="the lobby's database (default: the data folder's)",
    )
    sub = parser.add_subparsers(dest="admin", required=True)
    players = sub.add_parser("players", help="list the players")
    players.add_argument("--blocked", action="store_true", help="only the blocked ones")
    block = sub.add_parser("block", help="block a player")
    block.add_argument("name")
    block.add_argument("--why", default="", help="the reason the player is told")
    unblock = sub.add_parser("unblock", help="unblock a player")
    unblock.add_argument("name")
    ratings = sub.add_parser("ratings", help="list the ratings, or rebuild them from the stored results")
    ratings.add_argument("--game", default=None, help="only this game's")
    ratings.add_argument("--rebuild", action="store_true", help="rebuild every rating from the stored results")
    export = sub.add_parser("export", help="a table's log (kept in the database) as a file")
    export.add_argument("table")
    export.add_argument("file", nargs="?", default=None, help="where to write it (default TABLE.jsonl)")


async def _run(args: argparse.Namespace) -> int:
    from colosseum.tui.net.host.store import Store, StoreError
    from colosseum.tui.net.host.store.accounts import Refused

    given = getattr(args, "data", None)
    data = Path(given) if given else _default_data()
    if not data.is_dir():
        print(f"colosseum serve admin: no server data folder at {data} (give --data)", file=sys.stderr)
        return 1
    try:
        store = await Store.open(data, getattr(args, "database", None))
    except StoreError as err:
        print(f"colosseum serve admin: {err}", file=sys.stderr)
        return 1
    try:
        if args.admin == "players":
            offset, shown = 0, 0
            while True:
                page, total = await store.players(blocked_only=args.blocked, offset=offset, limit=200)
                for p in page:
                    keys = await store.keys(p.id)
                    mark = f"  BLOCKED: {p.blocked_why or 'no reason given'}" if p.blocked else ""
                    print(f"{p.name}\t{len(keys)} key(s)\t{', '.join(keys)}{mark}")
                shown += len(page)
                offset += len(page)
                if not page or offset >= total:
                    break
            print(f"{shown} player(s)")
        elif args.admin in ("block", "unblock"):
            player = await store.set_blocked(args.name, args.admin == "block", getattr(args, "why", ""))
            print(f"{player.name} is {'blocked' if player.blocked else 'no longer blocked'}")
        elif args.admin == "ratings":
            return await _ratings(store, args)
        elif args.admin == "export":
            from colosseum.tui.net.host.store import cluster

            data_bytes = await store.read(lambda c: cluster.export_log(c, args.table))
            if not data_bytes:
                print(f"colosseum serve admin: no log of table {args.table!r} in the database", file=sys.stderr)
                return 1
            target = args.file or f"{args.table}.jsonl"
            Path(target).write_bytes(data_bytes)
            count = data_bytes.count(b"\n")
            print(f"{target}: the log of table {args.table} ({count} lines)")
    except (Refused, StoreError) as err:
        print(f"colosseum serve admin: {err}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    return 0


async def _ratings(store: Store, args: argparse.Namespace) -> int:
    """List the ratings (each game's, best first), or rebuild them and say whether every one
    came out the same (it must, unless results were changed by hand)."""
    from sqlalchemy import select

    from colosseum.tui.net.host.store import schema as S

    async def everything(conn: AsyncConnection) -> dict[tuple[int, str], tuple[float, float, int]]:
        rows = await conn.execute(select(S.ratings))
        return {(r.player_id, r.game): (r.mu, r.sigma, r.games) for r in rows}

    if args.rebuild:
        before = await store.read(everything)
        count = await store.rebuild_ratings()
        after = await store.read(everything)
        differ = sum(1 for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        same = "every one as before" if not differ else f"{differ} differ from before (results changed by hand?)"
        print(f"every rating rebuilt from {count} rated game(s): {len(after)} rating(s), {same}")
        return 0
    games = sorted({g for _pid, g in await store.read(everything)})
    if args.game is not None:
        games = [g for g in games if g == args.game]
    shown = 0
    for game in games:
        offset = 0
        while True:
            page = await store.leaderboard(game, offset=offset, limit=200)
            for row in page:
                r = row.rating
                mark = " (provisional)" if r.provisional else ""
                print(f"{game}\t{row.place}\t{row.name}\t{r.shown}{mark}\t{r.games} game(s)")
            shown += len(page)
            offset += len(page)
            if len(page) < 200:
                break
    print(f"{shown} rating(s)")
    return 0


def _default_data() -> Path:
    from colosseum.tui.net.host.files import default_data_dir

    return default_data_dir()


def main(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
