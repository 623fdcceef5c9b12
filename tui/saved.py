"""The commands on saved games: ``games`` (the list), ``export``, ``resume``, ``view`` and
``fork``, for every game.  Each takes the parsed arguments and returns an exit status; ``games``
and ``export`` never load Textual.

Imports go one way: this module imports the app (``resume``, ``view``'s "play from here") and
the storage of saved games; the app imports the storage; the storage imports neither.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence

    from colosseum.core.logwriter import LogWriter
    from colosseum.core.timeline import GameLog

    from .session import LocalSession


# ------------------------------------------------------------------------------ output


def _err(msg: str) -> None:
    from colosseum.core.names import printable  # (a file's name may carry an escape sequence)

    print(f"colosseum: {printable(msg)}", file=sys.stderr)


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
    """(progress, result) columns of the games list: where the game stands in its own words
    (``Rules.progress``: "round 3", "turn 12"), and who won."""
    rules = log.timeline.rules
    st = log.state
    names = rules.names(st)
    winners = rules.winners(st)
    if winners:
        res = " and ".join(names[s] for s in winners) + " won"
    else:
        res = "unfinished"
    if log.error is not None:
        res += f"; damaged at line {log.error.line}"
    return rules.progress(st), res


PLAYERS_CELLS = 60  # longer player lists are cut (the file's header has them all)


def cmd_games(args: argparse.Namespace) -> int:
    from .export import local_date, players_text
    from .setups import edition_title
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
    rows = [("DATE", "GAME", "PLAYERS", "WHERE", "RESULT", "FILE")]
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
        rows.append((local_date(g.created), edition_title(g.log.setup), players, rnd, res, g.path.name))
    from colosseum.core.names import printable

    from .text import cells, fit, pad  # (rich: loaded only for the listing, never for simulate)

    rows = [  # a file's name is anyone's: never an escape sequence to the terminal
        (printable(a), printable(b), printable(c), printable(d), printable(e), printable(f))
        for a, b, c, d, e, f in rows
    ]

    # columns by terminal cells (a CJK name takes two a character), the file name last and whole
    widths = [max(cells(r[c]) for r in rows) for c in range(5)]
    out = [f"Saved games in {folder} (newest first):"]
    room = _listing_width()
    if room is None or sum(widths) + 10 + max(cells(r[5]) for r in rows) <= room:
        for r in rows:  # one line a game (a pipe: for grep and friends)
            out.append("  ".join(pad(r[c], widths[c]) for c in range(5)) + "  " + r[5])
        return _emit("\n".join(out) + "\n")
    for date, game, players, where, result, name in rows[1:]:  # a terminal too narrow: a block a game
        out.append("")
        out.append(fit(f"{date}  {game}", room))
        out.append(fit(f"  {players}", room))
        out.append(fit(f"  {where}, {result}" if where != "?" else f"  {result}", room))
        out.append(f"  {name}")  # whole: a name to copy
    return _emit("\n".join(out) + "\n")


def _listing_width() -> int | None:
    """The terminal's width when the listing goes to one (None: a pipe or a file)."""
    import shutil

    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size((80, 24)).columns


# ------------------------------------------------------------------------------ export


def cmd_export(args: argparse.Namespace) -> int:
    from .export import export_json_chunks, export_text

    log = load_for_command(args.file)
    if log is None:
        return 1
    if getattr(args, "format", "text") in ("html", "svg"):  # (these load Textual: they draw the viewer)
        at = None if getattr(args, "at", None) is None else _fork_point(log, args.at)
        if at is None and getattr(args, "at", None) is not None:
            _err(_at_help(log, args.at))
            return 2
        from .replay import cmd_export_picture

        return cmd_export_picture(args, log, at)
    if getattr(args, "at", None) is not None:
        _err(f"--at is for --format html or svg; --format {getattr(args, 'format', 'text')} records the whole game")
        return 2
    output = getattr(args, "output", None)
    if output:  # text and json to a file too, as html and svg
        try:
            with open(output, "wb") as f:
                if getattr(args, "format", "text") == "json":
                    for chunk in export_json_chunks(log):
                        f.write(chunk)
                else:
                    f.write(export_text(log).encode("utf-8"))
        except OSError as e:
            _err(f"cannot write {output}: {e.strerror or e}")
            return 1
        return 0
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


def prepare_resume(name: str | None) -> tuple[LocalSession, Path] | int:
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


def _session_for(log: GameLog) -> LocalSession | None:
    from colosseum.core.gamelog import GameLogError

    from .session import LocalSession, Seat

    try:
        seats = tuple(Seat(k) for k in log.seats)
        return LocalSession(log.setup, seats, actions=list(log.actions), reseed=log.header.reseed_point())
    except (ValueError, GameLogError) as e:
        hint = ""
        if "a bot this version does not have" in str(e):  # the position goes on with another bot
            hint = (
                "; go on from the same position with another bot:"
                f" colosseum fork {shlex.quote(str(log.path))} --at {len(log.actions)} --bots normal"
            )
        _err(f"{log.path}: cannot resume: {e}{hint}")
        return None


def note_damaged(session: LocalSession, log: GameLog, path: Path) -> None:
    """Tell the game screen's banner that ``log`` was damaged, where the player looks (the
    command line said it before the screen opened): one line, until the player's next move."""
    from .storage import Recorder

    recorder = session.recorder
    if log.error is None or not isinstance(recorder, Recorder):
        return
    n = len(log.actions)
    name = log.path.name if log.path is not None else "the log"
    where = f"at line {log.error.line} of {name}" if log.error.line is not None else f"in {name}"
    goes_on = "here" if path.name == name else f"in {path.name}"
    recorder.notice = f"{where}: {n} move{'s' if n != 1 else ''} kept, going on {goes_on} ({log.error.detail})"
    recorder.notice_at = len(session.actions)


def _resume_in_place(writer: LogWriter, log: GameLog) -> tuple[LocalSession, Path] | int:
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
    note_damaged(session, log, path)
    return session, path


def _resume_rescued(original: LogWriter, log: GameLog) -> tuple[LocalSession, Path] | int:
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
    note_damaged(session, log, path)
    return session, path


def cmd_resume(args: argparse.Namespace) -> int:
    from .storage import finish_recording

    prepared = prepare_resume(getattr(args, "file", None))
    if isinstance(prepared, int):
        return prepared
    session, _path = prepared
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


# ------------------------------------------------------------------------------ view


def cmd_view(args: argparse.Namespace) -> int:
    log = load_for_command(args.file)
    if log is None:
        return 1
    from .review_app import view_log

    theme = getattr(args, "theme", None)
    status, asked = view_log(log, theme=theme)
    if asked is None:
        return status
    # "play from here": the new game from the position shown, with the seats chosen in the review
    play_from, choice = asked
    started = _started_fork(play_from.game_log, play_from.at, lambda: choice.kinds, choice.reseed)
    if isinstance(started, int):
        return started
    session, _path = started
    from .app import run_session

    return run_session(session, theme=theme)


# ------------------------------------------------------------------------------ fork


def _fork_point(log: GameLog, text: str) -> int | None:
    """``N`` (or ``mN``, as a replay's address says it), or ``rR``: the position where the
    game's round R begins (its ``round`` steps: ``Rules.step_key``; the first is round 1), as a
    number of actions."""
    text = text.strip().lower()
    text = text[1:] if text.startswith("m") else text
    try:
        if text.startswith("r"):
            want = int(text[1:])
            tl = log.timeline
            starts = [i for i in range(tl.end) if tl.is_start("round", i)]
            return starts[want - 1] if 1 <= want <= len(starts) else None
        return int(text)
    except ValueError:
        return None


def _at_help(log: GameLog, text: str) -> str:
    """What ``--at`` takes in this game, with its own numbers (before: "r1, r2, ..." for a
    round the game does not have)."""
    tl = log.timeline
    rounds = sum(1 for i in range(tl.end) if tl.is_start("round", i))
    where = (
        f"a round (r1 to r{rounds})"
        if rounds > 1
        else "r1, its first round"
        if rounds
        else "no round: this game has none"
    )
    return f"--at {text}: give a number of actions (0 to {len(log.actions)}, or m123) or {where}"


def _seat_numbers(log: GameLog, text: str) -> list[int] | None:
    names = [p.lower() for p in log.setup.players]  # (people give names, not seats)
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


def _started_fork(
    log: GameLog, at: int, kinds: Callable[[], Sequence[str]], reseed: bool
) -> tuple[LocalSession, Path] | int:
    """The fork of ``log`` after ``at`` actions played by ``kinds()``, recorded, its path
    printed; or the exit status after one line saying why not."""
    from .fork import ForkError, start_fork

    try:
        session, path = start_fork(log, at, kinds(), reseed=reseed)
    except ForkError as e:
        _err(str(e))
        return 2
    except OSError as e:
        _err(f"cannot write the new game: {e}")
        return 1
    print(path)
    return session, path


def cmd_fork(args: argparse.Namespace) -> int:
    from .fork import seat_kinds

    log = load_for_command(args.file)
    if log is None:
        return 1
    at = _fork_point(log, args.at)
    if at is None:
        _err(_at_help(log, args.at))
        return 2
    humans = None
    if args.humans is not None:
        humans = _seat_numbers(log, args.humans)
        if humans is None:
            _err(f"--humans {args.humans}: give seat numbers (1 to {len(log.seats)}) or player names")
            return 2
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else None
    started = _started_fork(log, at, lambda: seat_kinds(log, humans, bots), args.reseed)
    if isinstance(started, int):
        return started
    session, _path = started
    if args.no_play:
        if session.recorder is not None and hasattr(session.recorder, "close"):
            session.recorder.close()
        return 0
    from .app import run_session

    return run_session(session, bot_delay=args.bot_delay, theme=args.theme)
