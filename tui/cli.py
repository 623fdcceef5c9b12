"""The ``colosseum`` command.  Argument parsing only; each command lives in its own module and
is imported when used, so ``colosseum simulate`` never loads Textual."""

from __future__ import annotations

import argparse
import sys

from colosseum.core.catalog import OPTIONS, VARIANTS


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=VARIANTS, default="grand", help="grand (default), classic or original")
    p.add_argument(
        "--option", action="append", default=[], choices=OPTIONS, dest="options", help="rules option (repeatable)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="colosseum", description="Colosseum in the terminal.")
    parser.add_argument(
        "--theme", default=None, help="colour theme (colosseum-dark, colosseum-light, colosseum-contrast)"
    )
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser("play", help="start a game at once (no new-game screen)")
    play.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    play.add_argument("--humans", type=int, default=1, help="human seats (hot seat), the rest are bots")
    play.add_argument("--bots", default="greedy", help="bot for the other seats (greedy or random)")
    play.add_argument("--names", default=None, help="comma-separated player names")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--bot-delay", type=float, default=0.6, help="seconds between bot moves")
    play.add_argument("--exit-at-end", action="store_true", help="quit with status 0 when the game ends")
    play.add_argument("--theme", default=None)
    _add_game_options(play)

    sim = sub.add_parser("simulate", help="play whole games with bots and print results")
    sim.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--bots", default="greedy,random,random,random", help="bot names by seat, comma-separated")
    sim.add_argument("--check", action="store_true", help="verify the invariants after every action")
    sim.add_argument("--json", action="store_true", help="one JSON object per game, then totals")
    _add_game_options(sim)

    sub.add_parser("games", help="list saved games")

    resume = sub.add_parser("resume", help="continue an unfinished game (the newest by default)")
    resume.add_argument("file", nargs="?")
    resume.add_argument("--bot-delay", type=float, default=0.6)
    resume.add_argument("--theme", default=None)

    view = sub.add_parser("view", help="review a game move by move")
    view.add_argument("file")
    view.add_argument("--theme", default=None)

    export = sub.add_parser("export", help="print a readable record of a game")
    export.add_argument("file")
    export.add_argument("--format", choices=("text", "json"), default="text")

    serve = sub.add_parser("serve", help="run an SSH server: one seat per connection")
    serve.add_argument("--listen", default="127.0.0.1:2222", help="HOST:PORT")
    serve.add_argument("--host-key", default=None, help="host key file (created on first start)")
    serve.add_argument("--authorized-keys", default=None, help="OpenSSH authorized_keys file of known players")
    serve.add_argument("--data", default=None, help="folder for tables and game logs")
    serve.add_argument("--open", action="store_true", help="let anyone in (unknown keys too)")
    serve.add_argument("--password", default=None, help="allow password login with this server password")
    serve.add_argument(
        "--bot-timeout", type=float, default=120.0, help="seconds before a bot plays for an absent player"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    cmd = args.command
    if cmd == "simulate":
        from colosseum.core.simulate import main as run

        return run(args)
    if cmd == "serve":
        from .net.server import cmd_serve

        return cmd_serve(args)
    if cmd in ("games", "export", "resume", "view"):
        from . import records

        return getattr(records, f"cmd_{cmd}")(args)
    from .app import run_app

    return run_app(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
