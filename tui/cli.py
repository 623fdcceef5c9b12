"""The ``colosseum`` command: the arguments, and the commands on saved games (``games``,
``export``, ``resume``, ``view``).  The other commands live in their own modules, imported when
used, so ``colosseum simulate``, ``games`` and ``export`` never load Textual.

Imports go one way: this module imports the app (``play``, ``resume``) and the storage of saved
games; the app imports the storage; the storage imports neither.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

if TYPE_CHECKING:  # the commands on saved games import what they use when run: `play` starts sooner
    import argparse

    from colosseum.core.logwriter import LogWriter
    from colosseum.core.timeline import GameLog

    from .municipium.session import MuniLocalSession
    from .session import LocalSession

    Resumable = LocalSession | MuniLocalSession

#: Municipium's rules options (M-13), as ``core.municipium.OPTIONS`` names them (a test checks):
#: spelled here so that building the parser does not load the second game's engine
MUNI_OPTIONS = ("short", "single-chamber")
#: Colosseum's variants and rules options, as ``core.catalog`` names them (a test checks): spelled
#: here so that ``colosseum`` shows the new-game screen without loading the game data's schema
VARIANTS = ("grand", "classic", "original")
OPTIONS = ("auction-2007",)


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--game", choices=("colosseum", "municipium"), default="colosseum", help="colosseum (default) or municipium"
    )
    p.add_argument("--variant", choices=VARIANTS, default="grand", help="grand (default), classic or original")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        choices=(*OPTIONS, *MUNI_OPTIONS),
        dest="options",
        help="rules option (repeatable): auction-2007; Municipium: short, single-chamber",
    )


def _version() -> str:
    from colosseum import __version__

    return __version__


def _play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument("--players", type=int, default=None, choices=(2, 3, 4, 5), help="3-5 (Municipium: 2-4)")
    play.add_argument("--humans", type=int, default=1, help="human seats (hot seat), the rest are bots")
    play.add_argument(
        "--bots", default="normal", help="bot level for the other seats: easy, normal (also: greedy), hard or random"
    )
    play.add_argument("--names", default=None, help="comma-separated player names")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument(
        "--bot-delay", type=float, default=None, help="seconds between bot moves (default: settings file, else 0.6)"
    )
    play.add_argument("--exit-at-end", action="store_true", help="quit with status 0 when the game ends")
    play.add_argument("--theme", default=None)
    _add_game_options(play)


def _simulate_arguments(sim: argparse.ArgumentParser) -> None:
    sim.add_argument("--players", type=int, default=None, choices=(2, 3, 4, 5), help="3-5 (Municipium: 2-4)")
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
    _add_game_options(sim)


def _no_arguments(_p: argparse.ArgumentParser) -> None:
    pass


def _resume_arguments(resume: argparse.ArgumentParser) -> None:
    resume.add_argument("file", nargs="?")
    resume.add_argument("--bot-delay", type=float, default=None, help="seconds between bot moves")
    resume.add_argument("--theme", default=None)


def _view_arguments(view: argparse.ArgumentParser) -> None:
    view.add_argument("file")
    view.add_argument("--theme", default=None)


def _export_arguments(export: argparse.ArgumentParser) -> None:
    export.add_argument("file")
    export.add_argument("--format", choices=("text", "json"), default="text")


def _fork_arguments(fork: argparse.ArgumentParser) -> None:
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


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    from .net.host.options import add_serve_arguments

    add_serve_arguments(serve)


#: the commands: (name, help, what adds its arguments)
COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser], None]], ...] = (
    ("play", "start a game at once (no new-game screen)", _play_arguments),
    ("simulate", "play whole games with bots and print results", _simulate_arguments),
    ("games", "list saved games", _no_arguments),
    ("resume", "continue an unfinished game (the newest by default)", _resume_arguments),
    ("view", "review a game move by move", _view_arguments),
    ("export", "print a readable record of a game", _export_arguments),
    ("fork", "start a new game from a position of a saved one", _fork_arguments),
    ("serve", "run an SSH server: one seat per connection", _serve_arguments),
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser.  ``only``: the command given, the one whose arguments are
    added (the others are listed by name and help): parsing is as with all of them, and
    building every command's arguments costs ``colosseum play`` milliseconds of its start."""
    import argparse

    parser = argparse.ArgumentParser(prog="colosseum", description="Colosseum in the terminal.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument(
        "--theme", default=None, help="colour theme (colosseum-dark, colosseum-light, colosseum-contrast)"
    )
    sub = parser.add_subparsers(dest="command")
    for name, help_text, add_arguments in COMMANDS:
        command = sub.add_parser(name, help=help_text)
        if only is None or only == name:
            add_arguments(command)
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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """``argv`` (default: the process's) parsed.  ``colosseum`` alone, the new-game screen,
    needs no parser: the arguments are the parser's defaults."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        from types import SimpleNamespace

        return cast("argparse.Namespace", SimpleNamespace(theme=None, command=None))
    return build_parser(only=_command_in(argv)).parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cmd = args.command
    game = getattr(args, "game", "colosseum")
    if getattr(args, "players", 0) is None:  # each game's own usual table
        args.players = 3 if game == "municipium" else 4
    if game == "colosseum" and getattr(args, "players", 4) == 2:
        print("colosseum: Colosseum is played by 3 to 5 players", file=sys.stderr)
        return 2
    if game == "municipium" and cmd == "play":
        from .municipium.app import run_from_args

        return run_from_args(args)
    if cmd == "simulate":
        from colosseum.core.simulate import main as run

        return run(args)
    if cmd == "serve":
        from .net.host.ssh import cmd_serve

        status: int = cmd_serve(args)
        return status
    if cmd == "games":
        return cmd_games(args)
    if cmd == "export":
        return cmd_export(args)
    if cmd == "resume":
        return cmd_resume(args)
    if cmd == "view":
        return cmd_view(args)
    if cmd == "fork":
        return cmd_fork(args)
    # Start-up allocates a great deal and frees little: the collector would run a dozen times
    # before the first frame for nothing.  It is back on once that frame is drawn (the app).
    import gc

    gc.disable()
    from .app import run_app

    return run_app(args)


# ------------------------------------------------------------------------------ output


def _err(msg: str) -> None:
    print(f"colosseum: {msg}", file=sys.stderr)


def _emit(text: str, stream: IO[str] | None = None) -> int:
    """Print without a traceback if the reader goes away (``colosseum export x | head``)."""
    stream = stream or sys.stdout
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):
            pass
    return 0


def load_for_command(name: str) -> GameLog | None:
    """Read a log for export/view/resume; print what is wrong.  None if nothing is usable."""
    from colosseum.core.gamelog import GameLogError
    from colosseum.core.logread import read_log

    from .storage import resolve_game

    path = resolve_game(name)
    try:
        log = read_log(path)
    except GameLogError as e:
        _err(f"{path}: {e}")
        return None
    if log.error is not None:
        _say_damaged(log)
    return log


def _say_damaged(log: GameLog) -> None:
    assert log.error is not None
    n = len(log.actions)
    _err(
        f"{log.path}: {log.error}. Using the {n} valid action{'s' if n != 1 else ''} before it; "
        "the file is left as it is."
    )


# ------------------------------------------------------------------------------ games


def _status(log: GameLog) -> tuple[str, str]:
    """(round, result) columns of the games list (Municipium's round is its turn)."""
    if log.game == "municipium":
        return _muni_status(log)
    st = log.state
    if st.phase == "over" and st.result is not None:
        rnd = str(st.round)
        res = f"{st.players[st.result.winner].name} won"
    else:
        rnd = str(st.round) if st.phase != "setup" else "setup"
        res = "unfinished"
    if log.error is not None:
        res += f"; damaged at line {log.error.line}"
    return rnd, res


def _muni_status(log: GameLog) -> tuple[str, str]:
    from colosseum.core.games.municipium import State as MuniState

    st: MuniState = log.state  # a Municipium log's state
    if st.phase == "over" and st.result is not None:
        rnd, res = str(st.turn), f"{st.players[st.result.winner].name} won"
    else:
        rnd, res = (str(st.turn) if st.phase != "place" else "setup"), "unfinished"
    if log.error is not None:
        res += f"; damaged at line {log.error.line}"
    return rnd, res


PLAYERS_CELLS = 60  # longer player lists are cut (the file's header has them all)


def cmd_games(args: argparse.Namespace) -> int:
    from .export import local_date, players_text
    from .storage import games_dir, rescued_names, scan_games

    try:
        folder = games_dir()
        infos = scan_games()
    except OSError as e:  # the data folder, or one above it, cannot be read
        _err(f"cannot list the saved games: {e}")
        return 1
    except RuntimeError as e:  # no home folder to put the data folder in
        _err(f"cannot list the saved games: {e}")
        return 1
    if not infos:
        print(f"No saved games yet (games are saved in {folder}).")
        return 0
    rows = [("DATE", "GAME", "PLAYERS", "ROUND", "RESULT", "FILE")]
    continued = rescued_names(infos)
    for g in infos:
        if g.log is None:
            rows.append((local_date(g.created), "?", "?", "?", f"unreadable: {g.problem}", g.path.name))
            continue
        rnd, res = _status(g.log)
        if g.path.name in continued:
            res += f"; continued in {continued[g.path.name]}"
        if g.log.header.fork_of:
            res += f"; fork of {g.log.header.fork_of} at action {g.log.header.fork_at}"
        players = players_text(g.log.setup, g.log.seats, width=PLAYERS_CELLS)
        rows.append((local_date(g.created), g.log.spec.title, players, rnd, res, g.path.name))
    from .text import cells, pad  # (rich: loaded only for the listing, never for simulate)

    # columns by terminal cells (a CJK name takes two a character), the file name last and whole
    widths = [max(cells(r[c]) for r in rows) for c in range(5)]
    out = [f"Saved games in {folder} (newest first):"]
    for r in rows:
        out.append("  ".join(pad(r[c], widths[c]) for c in range(5)) + "  " + r[5])
    return _emit("\n".join(out) + "\n")


# ------------------------------------------------------------------------------ export


def cmd_export(args: argparse.Namespace) -> int:
    from .export import export_json_chunks, export_text

    log = load_for_command(args.file)
    if log is None:
        return 1
    if getattr(args, "format", "text") == "json":
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        try:
            for chunk in export_json_chunks(log):
                if out is not None:
                    out.write(chunk)
                else:  # a text-only stream (tests capturing output)
                    sys.stdout.write(chunk.decode())
            sys.stdout.flush()
        except BrokenPipeError:
            _emit("")
        return 0
    return _emit(export_text(log))


# ------------------------------------------------------------------------------ resume


def prepare_resume(name: str | None) -> tuple[Resumable, Path] | int:
    """Build the session to resume and attach its recorder: (session, log path), or an exit
    status after printing why not.

    The log is locked before it is read and stays locked while the game is played (by the
    session's recorder), so no other process can append between the read and this game's first
    line.  A damaged log goes on in a new ``-resumed-N`` file, unless it was continued already:
    then that continuation is resumed instead (never a second copy of the same game)."""
    from .storage import continuation, games_dir, newest_unfinished, resolve_game

    try:
        if name is None:
            g = newest_unfinished()
            if g is None:
                _err(f"no unfinished game to resume in {games_dir()}")
                return 1
            path = g.path
        else:
            path = resolve_game(name)
    except OSError as e:
        _err(f"cannot look for saved games: {e}")
        return 1
    for _hop in range(100):  # each hop follows a continuation; a loop of them is refused
        got = _lock_and_read(path)
        if isinstance(got, int):
            return got
        writer, log = got
        if log.appendable:
            return _resume_in_place(writer, log)
        later = continuation(path)
        if later is None:
            return _resume_rescued(writer, log)
        writer.close()
        print(f"{path.name} was already continued in {later}; resuming that.", file=sys.stderr)
        path = later
    _err(f"{path}: its continuations go round in a circle; resume one of them by name")
    return 1


def _lock_and_read(path: Path) -> tuple[LogWriter, GameLog] | int:
    """The log at ``path``, read under its lock (held by the writer returned, not yet appending)."""
    from colosseum.core.gamelog import GameLogError
    from colosseum.core.logread import parse_log
    from colosseum.core.logwriter import GameInUse, LogWriter

    try:
        writer, data = LogWriter.open_locked(path)
    except GameInUse as e:
        _err(f"{e}; not resuming it here")
        return 1
    except FileNotFoundError:
        _err(f"{path}: no such file")
        return 1
    except IsADirectoryError:
        _err(f"{path}: is a folder, not a game log")
        return 1
    except OSError as e:
        _err(f"{path}: cannot resume: {e.strerror or e}")
        return 1
    try:
        log = parse_log(data, path=path)
    except GameLogError as e:
        writer.close()
        _err(f"{path}: {e}")
        return 1
    if log.error is not None:
        _say_damaged(log)
    if log.finished:
        writer.close()
        _err(f"{path}: that game is over; see it with 'colosseum view {path}'")
        return 1
    return writer, log


def _session_for(log: GameLog) -> Resumable | None:
    from colosseum.core.gamelog import GameLogError

    from .municipium.session import MuniLocalSession
    from .session import LocalSession, Seat

    try:
        seats = tuple(Seat(k) for k in log.seats)
        if log.game == "municipium":
            return MuniLocalSession(log.header.setup, seats, actions=list(log.actions))
        return LocalSession(log.setup, seats, actions=list(log.actions), reseed=log.header.reseed_point())
    except (ValueError, GameLogError) as e:
        _err(f"{log.path}: cannot resume: {e}")
        return None


def _resume_in_place(writer: LogWriter, log: GameLog) -> tuple[Resumable, Path] | int:
    from .storage import start_recording

    session = _session_for(log)
    if session is None:
        writer.close()
        return 1
    try:
        writer.start_appending(len(log.actions), digest=log.digest)
        path = start_recording(session, writer=writer, header=log.header)
    except OSError as e:
        writer.close()
        _err(f"cannot save the resumed game: {e}")
        return 1
    return session, path


def _resume_rescued(original: LogWriter, log: GameLog) -> tuple[Resumable, Path] | int:
    """A damaged log: its valid prefix goes on in a new file; the original stays locked while
    the game is played, so no other window makes a second continuation of it meanwhile."""
    from .storage import Recorder, open_rescued, start_recording

    session = _session_for(log)
    if session is None:
        original.close()
        return 1
    try:
        writer = open_rescued(log)
        path = start_recording(session, writer=writer, header=log.header)
    except OSError as e:
        original.close()
        _err(f"cannot save the resumed game: {e}")
        return 1
    recorder = session.recorder
    if isinstance(recorder, Recorder):
        recorder.held.append(original)
    print(f"The game continues in a new file: {path}", file=sys.stderr)
    return session, path


def cmd_resume(args: argparse.Namespace) -> int:
    from .municipium.session import MuniLocalSession
    from .storage import finish_recording

    prepared = prepare_resume(getattr(args, "file", None))
    if isinstance(prepared, int):
        return prepared
    session, _path = prepared
    if isinstance(session, MuniLocalSession):
        return _resume_muni(session, args)
    try:
        from .app import run_session
    except ImportError as e:
        finish_recording(session)
        _err(f"the game screen is not available ({e})")
        return 2
    try:
        status = run_session(
            session,
            bot_delay=getattr(args, "bot_delay", 0.6),
            theme=getattr(args, "theme", None),
            exit_at_end=False,
        )
    finally:
        lost = finish_recording(session)  # the app has done it already, unless it failed
    if lost:
        _err(lost)
        return status or 1
    return status


def _resume_muni(session: MuniLocalSession, args: argparse.Namespace) -> int:
    from .storage import finish_recording

    try:
        from .municipium.app import run_muni_session
    except ImportError as e:
        finish_recording(session)
        _err(f"the game screen is not available ({e})")
        return 2
    try:
        return run_muni_session(session, bot_delay=getattr(args, "bot_delay", 0.6), theme=getattr(args, "theme", None))
    finally:
        finish_recording(session)  # (done already by the app, unless it failed)


# ------------------------------------------------------------------------------ view


def cmd_view(args: argparse.Namespace) -> int:
    log = load_for_command(args.file)
    if log is None:
        return 1
    if log.game == "municipium":
        from .municipium.viewer import view_muni_log

        return view_muni_log(log, theme=getattr(args, "theme", None))
    from .viewer import view_log

    status, play_from = view_log(log, theme=getattr(args, "theme", None))
    if play_from is None:
        return status
    from .app import run_play_from  # "play from here": a new game from the position shown

    return run_play_from(play_from.game_log, play_from.at, theme=getattr(args, "theme", None))


# ------------------------------------------------------------------------------ fork


def _fork_point(log: GameLog, text: str) -> int | None:
    """``N`` or ``rR`` (the first position of round R) as a number of actions."""
    text = text.strip().lower()
    try:
        if text.startswith("r"):
            want = int(text[1:])
            tl = log.timeline
            return next((i for i in range(len(tl)) if tl.state(i).round == want and tl.state(i).phase != "over"), None)
        return int(text)
    except ValueError:
        return None


def _seat_numbers(log: GameLog, text: str) -> list[int] | None:
    names = [p.lower() for p in log.setup.players]
    out = []
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        if part.isdigit():
            out.append(int(part) - 1)
        elif part.lower() in names:
            out.append(names.index(part.lower()))
        else:
            return None
    return out


def cmd_fork(args: argparse.Namespace) -> int:
    from .fork import ForkError, seat_kinds, start_fork

    log = load_for_command(args.file)
    if log is None:
        return 1
    if log.game != "colosseum":
        _err(f"forking a {log.spec.title} game is not offered yet")
        return 2
    at = _fork_point(log, args.at)
    if at is None:
        _err(f"--at {args.at}: give a number of actions (0 to {len(log.actions)}) or a round (r1, r2, ...)")
        return 2
    humans = None
    if args.humans is not None:
        humans = _seat_numbers(log, args.humans)
        if humans is None:
            _err(f"--humans {args.humans}: give seat numbers (1 to {len(log.seats)}) or player names")
            return 2
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    try:
        kinds = seat_kinds(log, humans, bots)
        session, path = start_fork(log, at, kinds, reseed=args.reseed)
    except ForkError as e:
        _err(str(e))
        return 2
    except OSError as e:
        _err(f"cannot write the new game: {e}")
        return 1
    print(path)
    if args.no_play:
        if session.recorder is not None and hasattr(session.recorder, "close"):
            session.recorder.close()
        return 0
    from .app import run_session

    return run_session(session, bot_delay=args.bot_delay, theme=args.theme)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
