"""The options of ``colosseum serve`` and the limits they default to.

A module of its own, without asyncssh, so that the ``colosseum`` command can declare the
``serve`` options without loading the SSH server (``host.ssh`` re-exports it).
"""

from __future__ import annotations

import argparse

MAX_SESSIONS_PER_ADDRESS = 6  # client processes for one source address (a new key each: still 6)
MAX_CLIENTS = 300  # client processes in all
SESSION_MB = 48  # what one client process may cost (measured: 38-45 MB resident)
PASSWORD_ENV = "COLOSSEUM_SERVER_PASSWORD"


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of ``colosseum serve`` (``cli`` builds its sub-parser with this)."""
    parser.add_argument("--listen", default="127.0.0.1:2222", help="HOST:PORT")
    parser.add_argument("--host-key", default=None, help="host key file (created on first start)")
    parser.add_argument("--authorized-keys", default=None, help="OpenSSH authorized_keys file of known players")
    parser.add_argument("--data", default=None, help="folder for tables and game logs")
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="the lobby's database: postgresql+asyncpg://... (default: SQLite in the data folder)",
    )
    parser.add_argument("--open", action="store_true", help="let anyone in (unknown keys too)")
    parser.add_argument(
        "--password-file", default=None, help=f"allow password login with the password in FILE (or set {PASSWORD_ENV})"
    )
    parser.add_argument("--password", default=None, help="(discouraged: ps shows it) the server password")
    parser.add_argument(
        "--bot-timeout", type=float, default=120.0, help="seconds before a bot plays for an absent player"
    )
    parser.add_argument(
        "--turn-timeout", type=float, default=90.0, help="seconds a player has for one decision (0: no clock)"
    )
    parser.add_argument(
        "--idle-minutes",
        type=float,
        default=30.0,
        help="close a waiting table nobody joins, end a game nobody is at, after this long (0: never)",
    )
    parser.add_argument("--max-sessions", type=int, default=MAX_CLIENTS, help="client processes in all")
    parser.add_argument(
        "--sessions-per-address", type=int, default=MAX_SESSIONS_PER_ADDRESS, help="sessions one address may hold"
    )
    parser.add_argument(
        "--memory-budget",
        type=float,
        default=None,
        help=f"MB the client processes may use in all (default: half the available memory; ~{SESSION_MB} MB each)",
    )
    parser.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT",
        help="also serve the game to browsers here (sign-in: w in the SSH lobby shows a one-time link)",
    )
    parser.add_argument(
        "--web-url",
        default=None,
        metavar="URL",
        help="the public address of the web pages (behind a TLS proxy: https://...); default http://HOST:PORT",
    )
    parser.add_argument(
        "--host-id",
        default=None,
        metavar="NAME",
        help="one of several hosts sharing --database (PostgreSQL): this host's name (docs/architecture.md)",
    )
    parser.add_argument(
        "--peer-listen",
        default=None,
        metavar="HOST:PORT",
        help="with --host-id: where the other hosts' players reach this host's tables "
        "(default 127.0.0.1:0: any free port, reachable from this machine only)",
    )
    parser.add_argument(
        "--peer-tls",
        action="store_true",
        help="with --host-id: the other hosts reach this host's tables over TLS (a certificate kept in the data "
        "folder, pinned by the fingerprint this host publishes in the database)",
    )
    parser.add_argument(
        "--fixed-seeds",
        action="store_true",
        help="(tests, benchmarks) let a table be made with a seed: its creator then knows every roll to come",
    )
    from .admin import add_admin_arguments

    sub = parser.add_subparsers(dest="serve_command", metavar="admin", required=False)
    add_admin_arguments(sub.add_parser("admin", help="the operator's commands on the lobby's players and ratings"))
