"""The ``colosseum`` command: its arguments, and which command runs.  The commands live in their
own modules, imported when used, so ``colosseum simulate``, ``games`` and ``export`` never load
Textual (``saved.py``: the commands on saved games; ``app.py``: ``play``; ``core.simulate``).

A game's options are flags made from its option specs (``core.options``): the parse has two
phases, ``--game`` first, then that game's flags, so ``colosseum play --game municipium --help``
shows Municipium's.  An option's value is checked as a form's or a log header's is: a bad one is
refused with one line naming the valid values (``OptionError``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # the commands import what they use when run: `play` starts sooner
    import argparse

    from colosseum.core.options import OptionSpec

#: the commands whose game's options are flags (a fork keeps its parent's setup: D-38)
GAME_COMMANDS = ("play", "simulate")


def _err(msg: str) -> None:
    print(f"colosseum: {msg}", file=sys.stderr)


def _version() -> str:
    from colosseum import __version__

    return __version__


def _option_help(option: OptionSpec) -> str:
    text = option.help or option.label
    if option.kind in ("choice", "flags"):
        text += " (" + ", ".join(c.value for c in option.choices) + ")"
    elif option.kind == "count":
        text += f" ({option.low} to {option.high}" + ("; default: the rules' own)" if option.optional else ")")
    elif option.kind == "seat":
        text += " (a seat from 1; default: drawn by lot)"
    if option.kind == "choice":
        text += f"; default {option.default}"
    return text.replace("%", "%%")


def _add_game_options(p: argparse.ArgumentParser, game: str | None) -> None:
    """``--game`` and that game's option flags (values checked after parsing: one line each)."""
    import argparse

    from colosseum.core.registry import game_names, spec

    found = spec(game)
    names = ", ".join(game_names(discover=False))
    p.add_argument("--game", default=found.name, help=f"the game: {names} (default colosseum)")
    group = p.add_argument_group(f"{found.title}'s options")
    for option in found.options:
        if option.kind == "flags":
            group.add_argument(
                option.flag,
                action="append",
                default=None,
                dest=option.name,
                metavar="OPTION",
                help=_option_help(option),
            )
        elif option.kind == "switch":
            group.add_argument(
                option.flag,
                action=argparse.BooleanOptionalAction,
                default=None,
                dest=option.name,
                help=_option_help(option),
            )
        else:
            metavar = "N" if option.kind in ("count", "seat") else option.name.upper()
            group.add_argument(option.flag, default=None, dest=option.name, metavar=metavar, help=_option_help(option))


def _play_arguments(play: argparse.ArgumentParser, game: str | None = None) -> None:
    play.add_argument("--players", type=int, default=None, help="how many players (each game its own range)")
    play.add_argument("--humans", type=int, default=1, help="human seats (hot seat), the rest are bots")
    play.add_argument(
        "--bots",
        default="normal",
        help="bot level for the other seats: easy, normal (also: greedy), hard, expert or random",
    )
    play.add_argument("--names", default=None, help="comma-separated player names")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument(
        "--bot-delay", type=float, default=None, help="seconds between bot moves (default: settings file, else 0.6)"
    )
    play.add_argument("--exit-at-end", action="store_true", help="quit with status 0 when the game ends")
    play.add_argument("--theme", default=None)
    _add_game_options(play, game)


def _simulate_arguments(sim: argparse.ArgumentParser, game: str | None = None) -> None:
    sim.add_argument("--players", type=int, default=None, help="how many players (each game its own range)")
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--bots",
        default="greedy,random",
        help="bot names by seat, comma-separated; the last one fills the remaining seats",
    )
    sim.add_argument("--think", type=float, default=None, help="seconds per decision for the hard bot (default 1)")
    sim.add_argument("--check", action="store_true", help="verify the invariants after every action")
    sim.add_argument("--json", action="store_true", help="one JSON object per game, then totals")
    _add_game_options(sim, game)


def _no_arguments(_p: argparse.ArgumentParser, game: str | None = None) -> None:
    pass


def _resume_arguments(resume: argparse.ArgumentParser, game: str | None = None) -> None:
    resume.add_argument("file", nargs="?")
    resume.add_argument("--bot-delay", type=float, default=None, help="seconds between bot moves")
    resume.add_argument("--theme", default=None)


def _view_arguments(view: argparse.ArgumentParser, game: str | None = None) -> None:
    view.add_argument("file")
    view.add_argument("--theme", default=None)


def _export_arguments(export: argparse.ArgumentParser, game: str | None = None) -> None:
    export.add_argument("file")
    export.add_argument(
        "--format",
        choices=("text", "json", "html", "svg"),
        default="text",
        help="text: a record; json: every position; html: a replay page to share; svg: one position",
    )
    export.add_argument(
        "--at", default=None, help="svg: the position (N actions, mN, or rR; default the end); html: where it opens"
    )
    export.add_argument("--size", default=None, help="html, svg: the screen drawn, columns x rows (default 120x40)")
    export.add_argument("-o", "--output", default=None, help="the file to write (default: the standard output)")
    export.add_argument("--theme", default=None, help="html, svg: the colour theme")


def _stats_arguments(stats: argparse.ArgumentParser, game: str | None = None) -> None:
    stats.add_argument("--json", action="store_true", help="the figures as one JSON object")
    stats.add_argument("--dir", default=None, help="another folder of saved games (default: the games folder)")
    stats.add_argument("--player", default=None, help="count only this name's games (default: every person's)")


def _fork_arguments(fork: argparse.ArgumentParser, game: str | None = None) -> None:
    fork.add_argument("file")
    fork.add_argument(
        "--at", required=True, help="take the first N actions (N), or play from the start of round R (rR, e.g. r3)"
    )
    fork.add_argument("--humans", default=None, help="seats people play: numbers from 1 or names, comma-separated")
    fork.add_argument("--bots", default=None, help="bots for the other seats, comma-separated (the last repeats)")
    fork.add_argument("--reseed", action="store_true", help="new chance after the fork point")
    fork.add_argument("--no-play", action="store_true", help="only write the new game's log and print its path")
    fork.add_argument("--bot-delay", type=float, default=0.6)
    fork.add_argument("--theme", default=None)


def _tutorial_arguments(tutorial: argparse.ArgumentParser, game: str | None = None) -> None:
    from colosseum.core.registry import game_names

    names = ", ".join(game_names(discover=False))
    tutorial.add_argument("--game", default=None, help=f"the game: {names} (default colosseum)")
    tutorial.add_argument("--bot-delay", type=float, default=None, help="seconds between bot moves")
    tutorial.add_argument("--theme", default=None)


def _serve_arguments(serve: argparse.ArgumentParser, game: str | None = None) -> None:
    from .net.host.options import add_serve_arguments

    add_serve_arguments(serve)


#: the commands: (name, help, what adds its arguments)
COMMANDS: tuple[tuple[str, str, Callable[..., None]], ...] = (
    ("play", "start a game at once (no new-game screen)", _play_arguments),
    ("simulate", "play whole games with bots and print results", _simulate_arguments),
    ("games", "list saved games", _no_arguments),
    ("resume", "continue an unfinished game (the newest by default)", _resume_arguments),
    ("view", "review a game move by move", _view_arguments),
    ("export", "print a readable record of a game", _export_arguments),
    ("fork", "start a new game from a position of a saved one", _fork_arguments),
    ("stats", "statistics over the saved games: wins, scores, plays", _stats_arguments),
    ("tutorial", "a guided first game: a note at each new kind of decision", _tutorial_arguments),
    ("serve", "run an SSH server: one seat per connection", _serve_arguments),
)


def build_parser(only: str | None = None, game: str | None = None, *, listed: bool = True) -> argparse.ArgumentParser:
    """The command line's parser.  ``only``: the command given, the one whose arguments are
    added (the others are listed by name and help, or not at all if not ``listed``): parsing is
    as with all of them, and building every command's arguments costs ``colosseum play``
    milliseconds of its start.  ``game``: whose option flags ``play`` and ``simulate`` take
    (default: the default game's)."""
    import argparse

    from colosseum.themes import THEME_NAMES

    parser = argparse.ArgumentParser(prog="colosseum", description="Colosseum in the terminal.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--theme", default=None, help=f"colour theme ({', '.join(THEME_NAMES)})")
    sub = parser.add_subparsers(dest="command")
    for name, help_text, add_arguments in COMMANDS:
        if only is None or only == name:
            add_arguments(sub.add_parser(name, help=help_text), game)
        elif listed:
            sub.add_parser(name, help=help_text)
    return parser


def _command_in(argv: list[str]) -> str | None:
    """The command ``argv`` names, when that is plain (only ``--theme`` before it); else None."""
    tokens = iter(argv)
    for token in tokens:
        if token == "--theme":
            next(tokens, None)
        elif token.startswith("--theme="):
            continue
        else:
            return token if token in {name for name, _h, _a in COMMANDS} else None
    return None


def _game_in(argv: Sequence[str]) -> str | None:
    """The phase-one parse: the value of ``--game`` (None: not given)."""
    for i, token in enumerate(argv):
        if token == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if token.startswith("--game="):
            return token.split("=", 1)[1]
    return None


#: the longest pause between bot moves (as in the settings file)
MAX_BOT_DELAY = 60


class ArgumentsRefused(Exception):
    """Arguments that make no game: ``str(err)`` is the one line said (exit status 2)."""


def _setup_options(args: argparse.Namespace) -> None:
    """The game's options as given, checked: ``args.setup_options`` (field -> value) for
    ``play``, and each as ``args.<field>`` for ``simulate``."""
    from colosseum.core.options import OptionError
    from colosseum.core.registry import spec

    from .local import option_value

    found = spec(args.game)
    chosen: dict[str, Any] = {}
    for option in found.options:
        raw = getattr(args, option.name, None)
        if raw is None:
            continue
        try:
            value = option_value(option, raw)
        except OptionError as err:
            raise ArgumentsRefused(str(err)) from None
        if value != option.default:
            chosen[option.name] = value
        setattr(args, option.name, value)
    players = found.default_players if args.players is None else args.players
    if players not in found.player_counts:
        raise ArgumentsRefused(
            f"{found.title} is played by {found.min_players} to {found.max_players} players, not {players}"
        )
    try:
        found.make_setup(found.default_names[:1] * players, seed=0, **chosen)
    except OptionError as err:
        raise ArgumentsRefused(str(err)) from None
    args.setup_options = chosen
    _check_bots(args, found)


def _check_bots(args: argparse.Namespace, found: Any) -> None:
    """``--bots`` names bots the game has."""
    given = getattr(args, "bots", None)
    if not given:
        return
    light = (*found.bot_levels, "random", "greedy")
    for name in (b.strip() for b in str(given).split(",")):
        if name in light:
            continue
        known = found.rules().bot_names()
        if name not in known:
            levels = ", ".join(dict.fromkeys((*found.bot_levels, "random")))
            raise ArgumentsRefused(f"--bots: {found.title} has no bot {name!r}; choose from {levels}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """``argv`` (default: the process's) parsed.  ``colosseum`` alone, the new-game screen,
    needs no parser: the arguments are the parser's defaults.  Raises ArgumentsRefused for a
    game this program does not know, or an option's bad value."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        from types import SimpleNamespace

        return cast("argparse.Namespace", SimpleNamespace(theme=None, command=None))
    command = _command_in(argv)
    game = _game_in(argv) if command in GAME_COMMANDS else None
    if game is not None:
        from colosseum.core.registry import spec

        try:
            spec(game)
        except ValueError as err:
            raise ArgumentsRefused(str(err)) from None
    # The command's own parser alone parses what is right; anything it does not take is said by
    # the whole parser, as always (its usage line lists every command).
    args, unknown = build_parser(only=command, game=game, listed=command is None).parse_known_args(argv)
    if unknown:
        args = build_parser(only=command, game=game).parse_args(argv)
    delay = getattr(args, "bot_delay", None)  # (every command that plays: play, resume, fork, tutorial)
    if delay is not None and not 0 <= delay <= MAX_BOT_DELAY:  # (NaN and inf too: bots that never move)
        raise ArgumentsRefused(f"--bot-delay must be 0 to {MAX_BOT_DELAY} seconds, not {delay}")
    if getattr(args, "game", None) == "":
        raise ArgumentsRefused("--game needs a game's name")
    if args.command in GAME_COMMANDS:
        _setup_options(args)
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
    except ArgumentsRefused as err:
        _err(str(err))
        return 2
    cmd = args.command
    if cmd == "simulate":
        from colosseum.core.simulate import main as run

        return run(args)
    if cmd == "serve" and getattr(args, "serve_command", None) == "admin":
        from .net.host.admin import main as admin

        done: int = admin(args)
        return done
    if cmd == "serve":
        from .net.host.ssh import cmd_serve

        status: int = cmd_serve(args)
        return status
    if cmd == "stats":
        from .stats import cmd_stats

        return cmd_stats(args)
    if cmd in ("games", "export", "resume", "view", "fork"):
        from . import saved

        command: Callable[[argparse.Namespace], int] = getattr(saved, f"cmd_{cmd}")
        return command(args)
    if cmd == "tutorial":
        return _tutorial(args)
    # Start-up allocates a great deal and frees little: the collector would run a dozen times
    # before the first frame for nothing.  It is back on once that frame is drawn (the app).
    import gc

    gc.disable()
    from .app import run_app

    return run_app(args)


def _tutorial(args: argparse.Namespace) -> int:
    """``colosseum tutorial``: the game's guided first game, saved as any game is."""
    from .app import run_session
    from .base import BaseApp, no_terminal
    from .screens.tutorial import tutorial_session
    from .settings import DEFAULT_BOT_DELAY, load_settings
    from .storage import record_game

    if no_terminal():
        print(BaseApp.NO_TERMINAL, file=sys.stderr)
        return 2
    settings = load_settings()
    names = settings.new_game.get("names")
    from colosseum.core.names import printable  # a remembered name with ESC: "?" (D-98)

    try:
        session = tutorial_session(
            args.game, printable(names[0]) if isinstance(names, list) and names and isinstance(names[0], str) else None
        )
    except ValueError as err:
        _err(str(err))
        return 2
    record_game(session)
    delay = args.bot_delay if args.bot_delay is not None else settings.bot_delay
    return run_session(session, bot_delay=DEFAULT_BOT_DELAY if delay is None else delay, theme=args.theme, guided=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
