"""Game logs on disk: autosave, and the ``games``, ``resume``, ``export`` and ``view`` commands.

The file format lives in :mod:`colosseum.core.gamelog`.  Games are saved in
``platformdirs.user_data_dir("colosseum")/games/`` (or ``$COLOSSEUM_DATA_DIR/games/``) as
``2026-11-29-1412-becky-kat-laura.jsonl``.  Nothing here ever writes over an existing file:
a new game gets a new name, an intact log is only appended to, and a damaged one is continued
in a new ``NAME-resumed-N.jsonl``.  Textual is imported only by ``resume`` and ``view``.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import msgspec

from colosseum.core import Action, GameSetup, State
from colosseum.core.actions import Perform
from colosseum.core.engine import breakdown, catalog, spectacle_by_key
from colosseum.core.gamelog import (
    GameLog,
    GameLogError,
    Header,
    dump_log,
    encode_action_line,
    make_header,
    read_log,
)
from colosseum.core.model import PHASE_TITLES

from .session import GameSession, Seat

DATA_ENV = "COLOSSEUM_DATA_DIR"
FSYNC_ENV = "COLOSSEUM_FSYNC"


# ------------------------------------------------------------------------------ where games live


def data_dir() -> Path:
    """``$COLOSSEUM_DATA_DIR`` if set, else the platform's user data folder for colosseum."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("colosseum", appauthor=False))


def games_dir(create: bool = False) -> Path:
    d = data_dir() / "games"
    if create:
        d.mkdir(parents=True, exist_ok=True)
    return d


def _slug(name: str, fallback: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:20].strip("-")
    return text or fallback


def game_file_name(setup: GameSetup, when: _dt.datetime | None = None) -> str:
    """``2026-11-29-1412-becky-kat-laura.jsonl`` (local time, player names)."""
    when = when or _dt.datetime.now()
    names = "-".join(_slug(p, f"p{i + 1}") for i, p in enumerate(setup.players))
    return f"{when:%Y-%m-%d-%H%M}-{names}.jsonl"


def _create_exclusive(folder: Path, stem: str, data: bytes, first_suffix: int | None = None) -> Path:
    """Write ``data`` to a new file ``folder/stem[-N].jsonl`` that did not exist before."""
    folder.mkdir(parents=True, exist_ok=True)
    n = first_suffix
    while True:
        path = folder / (f"{stem}-{n}.jsonl" if n is not None else f"{stem}.jsonl")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n = 2 if n is None else n + 1
            continue
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        return path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


# ------------------------------------------------------------------------------ autosave


class Recorder:
    """Appends each applied action to a game log as one line, in one ``write`` call, straight to
    the operating system (no buffer in this process), so killing the program loses at most the
    action being applied.  With ``fsync`` each line is also forced to the disk (survives a power
    cut; costs a disk flush per action).  A write error never breaks the game: it stops the
    recording and is kept in ``error``."""

    def __init__(self, path: Path, next_number: int, *, fsync: bool = False) -> None:
        self._fd: int | None = None
        self.path = Path(path)
        self.number = next_number
        self.fsync = fsync
        self.error: OSError | None = None
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            _lock(fd, self.path)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def __call__(self, action: Action, state: State | None = None) -> None:
        if self._fd is None:
            return
        try:
            _write_all(self._fd, encode_action_line(action, self.number))
            if self.fsync:
                os.fsync(self._fd)
        except OSError as e:
            self.error = e
            self.close()
            return
        self.number += 1
        if state is not None and getattr(state, "phase", "") == "over":
            self.close()  # nothing can follow the end of the game

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass

    def __del__(self) -> None:  # pragma: no cover - best effort
        self.close()


class GameInUse(OSError):
    """Another colosseum process is recording this game."""


def _lock(fd: int, path: Path) -> None:
    """Hold an exclusive lock on the log while recording, so two programs never append to the
    same game; the system drops it when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise GameInUse(f"{path.name} is being played in another colosseum window") from None
    except OSError:  # a file system without locks: record anyway
        pass


def _seat_kinds(session: GameSession) -> tuple[str, ...]:
    return tuple(s.kind for s in session.seats)


def start_recording(
    session: GameSession,
    path: str | Path | None = None,
    *,
    append: bool = False,
    fsync: bool | None = None,
    resumed_from: str | None = None,
) -> Path:
    """Save ``session``'s game and keep saving it: returns the log's path.

    Without ``append``, a new file is created (never an existing one overwritten): ``path``, or
    a readable name in the games folder; it gets the header and the actions played so far.
    With ``append``, ``path`` is an intact log holding exactly ``session.actions`` and new
    actions are appended to it.  Either way ``session.recorder`` appends each further action.
    ``fsync`` defaults to ``$COLOSSEUM_FSYNC`` (off: each line is flushed, not forced to disk).
    """
    if fsync is None:
        fsync = os.environ.get(FSYNC_ENV, "") not in ("", "0")
    actions = list(session.actions)
    if append:
        if path is None:
            raise ValueError("append needs the path of an existing log")
        target = Path(path)
        with open(target, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                raise ValueError(f"{target} is empty")
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                raise ValueError(f"{target} does not end with a complete line")
    else:
        data = dump_log(make_header(session.setup, _seat_kinds(session), resumed_from=resumed_from), actions)
        if path is None:
            stem = game_file_name(session.setup)[: -len(".jsonl")]
            target = _create_exclusive(games_dir(create=True), stem, data)
        else:
            target = Path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)  # never overwrite
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
    old = getattr(session, "recorder", None)
    if isinstance(old, Recorder):
        old.close()
    session.recorder = Recorder(target, len(actions) + 1, fsync=fsync)  # type: ignore[attr-defined]
    return target


def save_rescued(log: GameLog, folder: Path | None = None) -> Path:
    """Write the valid prefix of a damaged log to a new ``NAME-resumed-N.jsonl`` beside it (or in
    ``folder``); the original is left as it is."""
    header = make_header(log.setup, log.seats, resumed_from=log.path.name if log.path else None)
    data = dump_log(header, log.actions)
    src = log.path
    stem = re.sub(r"-resumed-\d+$", "", src.stem) if src else "game"
    places = [folder] if folder else []
    if src is not None:
        places.append(src.parent)
    places.append(games_dir())
    last: OSError | None = None
    for place in places:
        try:
            return _create_exclusive(place, f"{stem}-resumed", data, first_suffix=1)
        except OSError as e:
            last = e
    raise last or OSError("nowhere to write")


# ------------------------------------------------------------------------------ finding games


def saved_games() -> list[Path]:
    d = games_dir()
    if not d.is_dir():
        return []
    return [p for p in d.glob("*.jsonl") if p.is_file()]


def _created(header: Header | None, path: Path) -> str:
    if header and header.created:
        return header.created
    try:
        return _dt.datetime.fromtimestamp(path.stat().st_mtime, _dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OSError:
        return ""


class GameInfo(msgspec.Struct, kw_only=True):
    path: Path
    created: str
    log: GameLog | None = None
    problem: str = ""  # the whole file is unreadable


def scan_games() -> list[GameInfo]:
    """Every saved game, newest first (by the time in the header, then the file's name)."""
    infos = []
    for p in saved_games():
        try:
            log = read_log(p)
        except GameLogError as e:
            infos.append(GameInfo(path=p, created=_created(None, p), problem=str(e)))
            continue
        infos.append(GameInfo(path=p, created=_created(log.header, p), log=log))
    infos.sort(key=lambda g: (g.created, g.path.name), reverse=True)
    return infos


def resolve_game(name: str) -> Path:
    """A path as given, or a file name (with or without .jsonl) in the games folder."""
    p = Path(name).expanduser()
    if p.exists() or p.is_absolute() or os.sep in name:
        return p
    for cand in (games_dir() / name, games_dir() / f"{name}.jsonl"):
        if cand.exists():
            return cand
    return p


def _err(msg: str) -> None:
    print(f"colosseum: {msg}", file=sys.stderr)


def _players_text(setup: GameSetup, seats: Iterable[str]) -> str:
    return ", ".join(p if k == "human" else f"{p} ({k})" for p, k in zip(setup.players, seats, strict=False))


def _local_date(iso: str) -> str:
    try:
        t = _dt.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.UTC)
        return t.astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16] or "?"


def _status(log: GameLog) -> tuple[str, str]:
    """(round, result) columns of the games list."""
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


# ------------------------------------------------------------------------------ games


def cmd_games(args) -> int:
    infos = scan_games()
    folder = games_dir()
    if not infos:
        print(f"No saved games yet (games are saved in {folder}).")
        return 0
    rows = [("DATE", "PLAYERS", "ROUND", "RESULT", "FILE")]
    continued = rescued_names(infos)
    for g in infos:
        if g.log is None:
            rows.append((_local_date(g.created), "?", "?", f"unreadable: {g.problem}", g.path.name))
            continue
        rnd, res = _status(g.log)
        if g.path.name in continued:
            res += f"; continued in {continued[g.path.name]}"
        rows.append((_local_date(g.created), _players_text(g.log.setup, g.log.seats), rnd, res, g.path.name))
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    out = [f"Saved games in {folder} (newest first):"]
    for r in rows:
        out.append("  ".join(r[c].ljust(widths[c]) for c in range(4)) + "  " + r[4])
    return _emit("\n".join(out) + "\n")


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


# ------------------------------------------------------------------------------ loading for a command


def load_for_command(name: str) -> GameLog | None:
    """Read a log for export/view/resume; print what is wrong.  None if nothing is usable."""
    path = resolve_game(name)
    try:
        log = read_log(path)
    except GameLogError as e:
        _err(f"{path}: {e}")
        return None
    if log.error is not None:
        n = len(log.actions)
        _err(
            f"{path}: {log.error}. Using the {n} valid action{'s' if n != 1 else ''} before it; "
            "the file is left as it is."
        )
    return log


# ------------------------------------------------------------------------------ export


def export_text(log: GameLog) -> str:
    """A readable record of the game, round by round, from the engine's events."""
    tl = log.timeline
    setup = log.setup
    out: list[str] = []
    title = "Colosseum - The Grand Spectacle" if setup.variant == "grand" else "Colosseum (classic)"
    out.append(f"{title}: game record")
    if log.path is not None:
        out.append(f"File:     {log.path.name}")
    out.append(
        f"Created:  {_local_date(log.header.created)}   (colosseum {log.header.program}, log format {log.header.version})"
    )
    opts = ", ".join(setup.options) or "none"
    out.append(f"Variant:  {setup.variant}   options: {opts}   seed: {setup.seed}")
    out.append(f"Players:  {_players_text(setup, log.seats)}")
    if log.header.resumed_from:
        out.append(f"Resumed from the damaged log {log.header.resumed_from}")
    out.append(f"Actions:  {tl.end}")
    section = None
    for i in range(1, len(tl)):
        action = tl.actions[i - 1]
        for ev in tl.events(i):
            if ev.phase == "setup":
                head = "Setup"
            elif ev.phase == "over" or ev.kind == "over":
                head = "End of the game"
            else:
                head = f"Round {ev.round}"
            if head != section:
                section = head
                out += ["", f"== {head} =="]
            if ev.kind == "phase":
                out += ["", ev.text]
                continue
            out.append(f"  {ev.text}")
            if ev.kind == "perform" and isinstance(action, Perform):
                out += _breakdown_lines(tl.state(i - 1), action)
    final = tl.state(tl.end)
    out.append("")
    if final.result is not None:
        out.append("== Final ranking ==")
        for s in final.result.standings:
            p = final.players[s.seat]
            why = f"   (ahead on {s.decided_by})" if s.decided_by and s.decided_by != "acclaim" else ""
            out.append(
                f"  {s.rank}. {p.name:<16} {s.acclaim:>3} Acclaim  {s.coins:>3} coins  "
                f"{s.stars} star{'s' if s.stars != 1 else ''}{why}"
            )
    else:
        where = PHASE_TITLES.get(final.phase, final.phase)
        out.append(f"== Unfinished: round {final.round}, {where} ==")
        for p in sorted(final.players, key=lambda p: -p.acclaim):
            out.append(f"  {p.name:<16} {p.acclaim:>3} Acclaim  {p.coins:>3} coins")
    if log.error is not None:
        out += ["", f"The log is damaged after this point: {log.error}"]
    return "\n".join(out) + "\n"


def _breakdown_lines(state: State, action) -> list[str]:
    try:
        spec = spectacle_by_key(catalog(state), action.spectacle)
        b = breakdown(state, action.player, spec, action.aquilas)
    except Exception:  # the event sentence already says what happened
        return []
    lines = [f"      {label:<34} {value:>3}" for label, value in b.lines if value]
    lines.append(f"      {'Acclaim':<34} {b.total:>3}")
    return lines


def export_json_chunks(log: GameLog) -> Iterable[bytes]:
    """One JSON document: {"header", "error", "positions": [{index, action, events, state}]},
    one position per line (the full replayed state after each action)."""
    enc = msgspec.json.Encoder()
    tl = log.timeline
    err = None
    if log.error is not None:
        err = {"line": log.error.line, "kind": log.error.kind, "message": str(log.error)}
    yield b'{"header":' + enc.encode(log.header) + b',\n"error":' + enc.encode(err) + b',\n"positions":[\n'
    for i in range(len(tl)):
        action = tl.actions[i - 1] if i else None
        item = b'{"index":%d,"action":%s,"events":%s,"state":%s}' % (
            i,
            enc.encode(action),
            enc.encode(tl.events(i)),
            enc.encode(tl.state(i)),
        )
        yield item + (b",\n" if i < tl.end else b"\n")
    yield b"]}\n"


def cmd_export(args) -> int:
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


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def rescued_names(infos: list[GameInfo]) -> dict[str, str]:
    """Damaged logs already continued elsewhere: original file name -> the continuation's."""
    out = {}
    for g in infos:
        if g.log is not None and g.log.header.resumed_from:
            out[g.log.header.resumed_from] = g.path.name
    return out


def newest_unfinished() -> GameInfo | None:
    """The unfinished game played last (by the file's modification time), leaving out damaged
    logs that were already continued in a ``-resumed-N`` file."""
    infos = scan_games()
    done = rescued_names(infos)
    candidates = [g for g in infos if g.log is not None and not g.log.finished and g.path.name not in done]
    if not candidates:
        return None
    return max(candidates, key=lambda g: (_mtime(g.path), g.created))


def prepare_resume(name: str | None) -> tuple[object, Path] | int:
    """Build the session to resume and attach its recorder: (session, log path), or an exit
    status after printing why not."""
    from .session import LocalSession

    if name is None:
        g = newest_unfinished()
        if g is None:
            _err(f"no unfinished game to resume in {games_dir()}")
            return 1
        log = g.log
        assert log is not None
        if log.error is not None:
            _err(f"{g.path}: {log.error}. Using the {len(log.actions)} valid actions before it.")
    else:
        log = load_for_command(name)
        if log is None:
            return 1
    if log.finished:
        _err(f"{log.path}: that game is over; see it with 'colosseum view {log.path}'")
        return 1
    try:
        seats = tuple(Seat(k) for k in log.seats)
        session = LocalSession(log.setup, seats, actions=list(log.actions))
    except (ValueError, GameLogError) as e:
        _err(f"{log.path}: cannot resume: {e}")
        return 1
    assert log.path is not None
    try:
        if log.appendable:
            path = start_recording(session, log.path, append=True)
        else:
            path = start_recording(session, save_rescued(log), append=True)
            print(f"The game continues in a new file: {path}", file=sys.stderr)
    except GameInUse as e:
        _err(f"{e}; not resuming it here")
        return 1
    except (OSError, ValueError) as e:
        _err(f"cannot save the resumed game: {e}")
        return 1
    return session, path


def cmd_resume(args) -> int:
    prepared = prepare_resume(getattr(args, "file", None))
    if isinstance(prepared, int):
        return prepared
    session, path = prepared
    try:
        from .app import run_session
    except ImportError as e:
        _err(f"the game screen is not available ({e})")
        return 2
    return run_session(
        session,
        bot_delay=getattr(args, "bot_delay", 0.6),
        theme=getattr(args, "theme", None),
        exit_at_end=False,
    )


# ------------------------------------------------------------------------------ view


def cmd_view(args) -> int:
    log = load_for_command(args.file)
    if log is None:
        return 1
    from .viewer import run_viewer

    return run_viewer(log, theme=getattr(args, "theme", None))
