"""``colosseum serve admin ...``: what an operator does to the lobby's store, from a shell on
the server's machine (the data folder, or ``--database URL``).

    colosseum serve admin players [--blocked]          list the players (name, keys, blocked)
    colosseum serve admin block NAME [--why TEXT]      block a player (they cannot log in)
    colosseum serve admin unblock NAME
    colosseum serve admin ratings                      rebuild every rating from the results
    colosseum serve admin export TABLE FILE            a table's log (several hosts) as a file

Each prints one line per thing done, or one line saying why not (exit status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

__all__ = ["add_admin_arguments", "main"]


def add_admin_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default=None, help="the server's data folder")
    parser.add_argument(
        "--database", default=None, metavar="URL", help="the lobby's database (default: the data folder's)"
    )
    sub = parser.add_subparsers(dest="admin", required=True)
    players = sub.add_parser("players", help="list the players")
    players.add_argument("--blocked", action="store_true", help="only the blocked ones")
    block = sub.add_parser("block", help="block a player")
    block.add_argument("name")
    block.add_argument("--why", default="", help="the reason the player is told")
    unblock = sub.add_parser("unblock", help="unblock a player")
    unblock.add_argument("name")
    sub.add_parser("ratings", help="rebuild every rating from the stored results")
    export = sub.add_parser("export", help="a table's log (kept in the database) as a file")
    export.add_argument("table")
    export.add_argument("file")


async def _run(args: argparse.Namespace) -> int:
    from colosseum.tui.net.host.store import Store, StoreError
    from colosseum.tui.net.host.store.accounts import Refused

    data = Path(args.data) if args.data else _default_data()
    try:
        store = await Store.open(data, args.database)
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
            count = await store.rebuild_ratings()
            print(f"every rating rebuilt from {count} rated game(s)")
        elif args.admin == "export":
            from colosseum.tui.net.host.store import cluster

            data_bytes = await store.read(lambda c: cluster.export_log(c, args.table))
            if not data_bytes:
                print(f"colosseum serve admin: no log of table {args.table!r} in the database", file=sys.stderr)
                return 1
            Path(args.file).write_bytes(data_bytes)
            count = data_bytes.count(b"\n")
            print(f"{args.file}: the log of table {args.table} ({count} lines)")
    except (Refused, StoreError) as err:
        print(f"colosseum serve admin: {err}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    return 0


def _default_data() -> Path:
    from colosseum.tui.net.host.ssh import default_data_dir

    return default_data_dir()


def main(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
