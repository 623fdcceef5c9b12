"""Saved games on disk: where they live, their names, autosave, rescue, and finding them again.

Games are saved in ``platformdirs.user_data_dir("colosseum")/games/`` (or
``$COLOSSEUM_DATA_DIR/games/``) as ``2026-11-29-1412-becky-kat-laura.jsonl``.  Nothing here ever
writes over an existing file: a new game gets a new name, an intact log is only appended to,
and a damaged one is continued in a new ``NAME-resumed-N.jsonl``.  The file format is
:mod:`colosseum.core.gamelog`; every write goes through :class:`colosseum.core.logwriter.LogWriter`.

This module is part of the client, not of ``core``, although it imports no Textual: it records a
client's :class:`~colosseum.tui.session.LocalSession`, and the user's data folder is the
client's business (the server keeps its games in its own ``--data`` folder).  It never imports
the app or the command line: both import it.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import msgspec

from colosseum.core import Action, GameSetup, State
from colosseum.core.gamelog import (
    UNDO_VERSION,
    GameLog,
    GameLogError,
    Header,
    UndoLine,
    encode_undo_line,
    make_header,
    read_log,
)
from colosseum.core.logwriter import SUFFIX, LogWriter

from .session import LocalSession

DATA_ENV = "COLOSSEUM_DATA_DIR"


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
    return f"{when:%Y-%m-%d-%H%M}-{names}{SUFFIX}"


# ------------------------------------------------------------------------------ autosave


class Recorder:
    """``LocalSession.recorder``: appends each applied action to the game's log (see
    :mod:`colosseum.core.logwriter` for when a line is on disk).  A write error never breaks
    the game: it stops the recording and is kept in ``error``.  The log is closed once the game
    is over (nothing can follow the end)."""

    def __init__(self, writer: LogWriter) -> None:
        self.writer = writer
        self.error: OSError | None = None

    @property
    def path(self) -> Path:
        return self.writer.path

    @property
    def number(self) -> int:
        """The number the next action gets."""
        return self.writer.count + 1

    @property
    def fsync(self) -> bool:
        return self.writer.fsync

    def __call__(self, action: Action, state: State | None = None) -> None:
        if self.writer.closed:
            return
        try:
            self.writer.append_action(action)
        except OSError as e:  # the writer has closed itself
            self.error = e
            return
        if state is not None and state.phase == "over":
            self.close()

    def close(self) -> None:
        self.writer.close()

    # A log written before undo lines existed (format version 1) cannot hold one: a reader of
    # that version would replay the withdrawn actions.  The session asks before taking back.
    undo_refusal = ""

    def record_undo(self, line: UndoLine) -> None:
        """Append an undo line: the next action is number ``line.undo`` again."""
        if self.writer.closed:
            return
        try:
            # The writer has no undo method of its own yet: one line, one write, like the others.
            self.writer._write(encode_undo_line(line))
        except OSError as e:
            self.error = e
            return
        self.writer.count = line.undo - 1


def start_recording(
    session: LocalSession,
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
    ``fsync`` defaults to ``$COLOSSEUM_FSYNC`` (on unless it is ``0``).  Raises OSError
    (``logwriter.GameInUse``, ``NotAppendable``, ``FileExistsError``, ...).
    """
    actions = list(session.actions)
    old = session.recorder if isinstance(session.recorder, Recorder) else None
    if append:
        if path is None:
            raise ValueError("append needs the path of an existing log")
        if old is not None and _same_file(old.path, Path(path)):
            old.close()  # it holds the lock on the very file to append to
        writer = LogWriter.open_append(path, len(actions), fsync=fsync)
        old_format = _header_version(Path(path)) < UNDO_VERSION
    else:
        old_format = False
        header = make_header(session.setup, _seat_kinds(session), resumed_from=resumed_from, version=UNDO_VERSION)
        if path is None:
            stem = game_file_name(session.setup)[: -len(SUFFIX)]
            writer = LogWriter.create(games_dir(create=True), stem, header, actions, fsync=fsync)
        else:
            writer = LogWriter.create_at(path, header, actions, fsync=fsync)
    if old is not None:  # kept until now: a new file that cannot be made leaves it recording
        old.close()
    session.recorder = Recorder(writer)
    if old_format:
        session.recorder.undo_refusal = "this game's log is in an older format that cannot record a take-back"
    return writer.path


def _header_version(path: Path) -> int:
    """The format version in a log's header (1 if it cannot be told)."""
    try:
        with path.open("rb") as f:
            first = f.readline(1 << 16)
        version = msgspec.json.decode(first).get("version", 1)
    except (OSError, msgspec.DecodeError, AttributeError):
        return 1
    return version if isinstance(version, int) else 1


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _seat_kinds(session: LocalSession) -> tuple[str, ...]:
    return tuple(s.kind for s in session.seats)


def save_rescued(log: GameLog, folder: Path | None = None) -> Path:
    """Write the valid prefix of a damaged log to a new ``NAME-resumed-N.jsonl`` beside it (or in
    ``folder``); the original is left as it is."""
    header = make_header(log.setup, log.seats, resumed_from=log.path.name if log.path else None, version=UNDO_VERSION)
    src = log.path
    stem = re.sub(r"-resumed-\d+$", "", src.stem) if src else "game"
    places = [folder] if folder else []
    if src is not None:
        places.append(src.parent)
    places.append(games_dir())
    last: OSError | None = None
    for place in places:
        try:
            with LogWriter.create(place, f"{stem}-resumed", header, log.actions, first_suffix=1) as writer:
                return writer.path
        except OSError as e:
            last = e
    raise last or OSError("nowhere to write")


# ------------------------------------------------------------------------------ finding games


def saved_games() -> list[Path]:
    d = games_dir()
    if not d.is_dir():
        return []
    return [p for p in d.glob(f"*{SUFFIX}") if p.is_file()]


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
    for cand in (games_dir() / name, games_dir() / f"{name}{SUFFIX}"):
        if cand.exists():
            return cand
    return p


def rescued_names(infos: Sequence[GameInfo]) -> dict[str, str]:
    """Damaged logs already continued elsewhere: original file name -> the continuation's."""
    out = {}
    for g in infos:
        if g.log is not None and g.log.header.resumed_from:
            out[g.log.header.resumed_from] = g.path.name
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def newest_unfinished() -> GameInfo | None:
    """The unfinished game played last (by the file's modification time), leaving out damaged
    logs that were already continued in a ``-resumed-N`` file."""
    infos = scan_games()
    done = rescued_names(infos)
    candidates = [g for g in infos if g.log is not None and not g.log.finished and g.path.name not in done]
    if not candidates:
        return None
    return max(candidates, key=lambda g: (_mtime(g.path), g.created))
