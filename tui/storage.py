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
import shlex
import stat
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from colosseum.core.gamelog import GameLogError, Header, UndoLine, make_header
from colosseum.core.logread import printable_header, read_log
from colosseum.core.logwriter import SUFFIX, LogWriter, fsync_default
from colosseum.core.options import SetupBase
from colosseum.core.registry import spec
from colosseum.core.timeline import GameLog

from .session import LocalSession
from .setups import edition_value

#: an action of any game
Action = Any

#: a session whose game is saved
RecordedSession = LocalSession

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
    """A readable, file-name-safe form of a name in any script: Latin letters lose their
    accents (``Zoë`` -> ``zoe``), letters of other scripts stay (``ベッキー``, ``小明``)."""
    out = []
    for ch in unicodedata.normalize("NFKC", name):
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
        out.append(base.lower() if base else ch.casefold() if ch.isalnum() else "-")
    text = re.sub(r"[\W_]+", "-", "".join(out)).strip("-")[:20].strip("-")
    return text or fallback


def game_file_name(setup: SetupBase, when: _dt.datetime | None = None) -> str:
    """``2026-11-29-1412-colosseum-grand-becky-kat-laura.jsonl``: local time, the game, its
    edition (where it has editions: ``setups.edition``), the player names;
    ``2026-11-29-1412-municipium-becky-kat.jsonl``."""
    when = when or _dt.datetime.now()
    names = "-".join(_slug(p, f"p{i + 1}") for i, p in enumerate(setup.players))
    game = "-".join(x for x in (_slug(type(setup).game, "game"), _slug(edition_value(setup), "")) if x)
    return f"{when:%Y-%m-%d-%H%M}-{game}-{names}{SUFFIX}"


# ------------------------------------------------------------------------------ autosave

Listener = Callable[["Recorder"], None]


class Recorder:
    """``LocalSession.recorder``: saves each applied action in the game's log (see
    :mod:`colosseum.core.logwriter` for when a line is on disk).

    Saving never fails silently and never breaks the game.  A write error is kept in ``error``
    and the actions not written stay in the session (``unsaved`` counts them); every further
    action retries writing them all, in order, and :meth:`save_to` writes the whole game to
    another folder.  A game whose log could not even be created (:func:`record_game`) retries
    creating it.  Listeners (the game screen's banner) are told after each attempt whose
    outcome they may show.  The log stays open, and locked, until :meth:`close` (or the end of
    the process), also after the game ends: no other process can append to it meanwhile."""

    def __init__(
        self,
        session: RecordedSession,
        writer: LogWriter | None,
        *,
        header: Header,
        error: OSError | None = None,
        stem: str | None = None,
        fsync: bool | None = None,
    ) -> None:
        self.session = session
        self.writer = writer
        self.header = header  # for a new file holding the whole game (save_to, rescue)
        self.error = error
        self.stem = stem or (writer.path.stem if writer is not None else _stem(session.setup))
        self._fsync = fsync
        self._listeners: list[Listener] = []
        self.closed = False
        self.held: list[LogWriter] = []  # other logs kept locked while this game is played
        # What the banner says about the log resumed (a damaged line), until the first move a
        # player of this screen makes after ``notice_at`` actions (``saved.note_damaged``).
        self.notice: str | None = None
        self.notice_at = 0
        # Lines not yet written that come before the session's actions from ``_resume_at`` on:
        # actions since taken back and the undo lines withdrawing them, in file order.
        self._backlog: list[Action | UndoLine] = []
        self._resume_at = 0
        self._tail: list[Action] = []  # the unsaved actions as last seen (an undo drops them)
        self._keep_tail()

    @property
    def path(self) -> Path | None:
        """The log being written (None while it could not be created)."""
        return self.writer.path if self.writer is not None else None

    @property
    def number(self) -> int:
        """The number the next action gets."""
        return self.saved + 1

    @property
    def fsync(self) -> bool:
        if self.writer is not None:
            return self.writer.fsync
        return fsync_default() if self._fsync is None else self._fsync

    @property
    def saved(self) -> int:
        """Actions of the game that are in the log."""
        return self.writer.count if self.writer is not None else 0

    @property
    def unsaved(self) -> int:
        """Lines (actions, and undo lines) played but not in the log (kept in memory until
        they can be written)."""
        if self._backlog:
            return len(self._backlog) + len(self.session.actions) - self._resume_at
        return len(self.session.actions) - self.saved

    @property
    def undo_refusal(self) -> str:
        """Why no take-back may be recorded ("" if it may): a log written before undo lines
        existed (format version 1) cannot hold one, a reader of that version would replay the
        withdrawn actions.  The session asks before taking back."""
        if self.writer is not None and self.writer.digest is None:
            return "this game's log is in an older format that cannot record a take-back"
        return ""

    def _keep_tail(self) -> None:
        start = self._resume_at if self._backlog else self.saved
        actions = self.session.actions
        self._tail = list(actions[start:]) if len(actions) > start else []

    def record_undo(self, line: UndoLine) -> None:
        """Record an undo line (the session has already taken the actions back): the next
        action is number ``line.undo`` again.  Unsaved actions it withdraws are written before
        it, so the log keeps them; a write error leaves it in memory like an unsaved action."""
        if self.closed:
            return
        start = self._resume_at if self._backlog else self.saved
        self._backlog.extend(self._tail[: max(0, line.through - start)])
        self._backlog.append(line)
        self._resume_at = line.undo - 1
        self.flush()

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def _tell(self) -> None:
        for fn in list(self._listeners):
            fn(self)

    def __call__(self, action: Action, state: Any = None) -> None:
        self.flush()

    def flush(self) -> bool:
        """Write every unsaved action (True if none is left).  A write error is kept in
        ``error``, never raised."""
        if self.closed:
            return self.unsaved == 0
        had_error = self.error is not None
        try:
            self._write_unsaved()
        except OSError as e:
            self.error = e
        else:
            self.error = None
        if had_error or self.error is not None or self.notice is not None:
            self._tell()
        return self.error is None

    def _write_unsaved(self) -> None:
        try:
            self._write_lines()
        finally:
            self._keep_tail()

    def _write_lines(self) -> None:
        actions = self.session.actions
        over = self._over()
        if self.writer is None and self._backlog:  # the backlog's numbers start from the header
            self.writer = LogWriter.create(games_dir(create=True), self.stem, self.header, (), fsync=self._fsync)
        if self.writer is None:
            self.writer = LogWriter.create(
                games_dir(create=True), self.stem, self.header, actions, fsync=self._fsync, end=over
            )
            return
        w = self.writer
        assert w is not None
        while self._backlog:
            item = self._backlog[0]
            if isinstance(item, UndoLine):
                w.append_undo(item)
            else:
                w.append_action(item)
            self._backlog.pop(0)
        while w.count < len(actions):
            last = w.count + 1 == len(actions)
            w.append_action(actions[w.count], final=last and over)

    def _over(self) -> bool:
        return self.session.rules.is_over(self.session.state)

    def save_to(self, folder: str | Path) -> Path:
        """Save the whole game in a new log in ``folder`` and go on recording there (the old
        log, which holds a prefix of the game, is left as it is and named in the new header as
        the file this one continues).  Raises OSError."""
        actions = self.session.actions
        header = self.header
        if self.writer is not None:
            header = msgspec.structs.replace(header, resumed_from=self.writer.path.name)
        folder = Path(folder).expanduser()
        writer = LogWriter.create(folder, self.stem, header, actions, fsync=self._fsync, end=self._over())
        old, self.writer = self.writer, writer
        if old is not None:
            old.close()
        self._backlog.clear()  # the new file holds the game that stands
        self._keep_tail()
        self.error = None
        self._tell()
        return writer.path

    def rescue(self) -> Path | None:
        """Save the whole game somewhere that works (:func:`rescue_places`, in order); the
        path written, or None if nothing could be written anywhere (``error`` says why)."""
        for place in rescue_places():
            try:
                return self.save_to(place)
            except OSError as e:
                self.error = e
        self._tell()
        return None

    def close(self) -> None:
        """Stop recording and let go of the log (and of the logs held with it)."""
        self.closed = True
        if self.writer is not None:
            self.writer.close()
        for w in self.held:
            w.close()
        self.held.clear()


def resume_command(path: str | Path) -> str:
    """How to continue the game in ``path``: a copy outside the games folder must be named (a
    plain ``resume`` would continue an older game there)."""
    p = Path(path)
    return "colosseum resume" if _same_file(p.parent, games_dir()) else f"colosseum resume {shlex.quote(str(p))}"


def rescue_places() -> list[Path]:
    """Where a copy of an unsaved game is tried, in order: the games folder, the data folder,
    the home folder, the temporary folder, the current folder."""
    import tempfile

    places = [games_dir(), data_dir(), Path.home(), Path(tempfile.gettempdir()), Path.cwd()]
    out: list[Path] = []
    for p in places:
        if p not in out:
            out.append(p)
    return out


def _stem(setup: SetupBase) -> str:
    return game_file_name(setup)[: -len(SUFFIX)]


def start_recording(
    session: RecordedSession,
    path: str | Path | None = None,
    *,
    append: bool = False,
    fsync: bool | None = None,
    resumed_from: str | None = None,
    digest: bytes | None = None,
    writer: LogWriter | None = None,
    header: Header | None = None,
) -> Path:
    """Save ``session``'s game and keep saving it: returns the log's path.

    Without ``append``, a new file is created (never an existing one overwritten): ``path``, or
    a readable name in the games folder; it gets the header and the actions played so far.
    With ``append``, ``path`` is an intact log holding exactly ``session.actions`` (and, for a
    log with digests, ending with ``digest`` when given) and new actions are appended to it.
    ``writer``: a writer ready to append (``LogWriter.open_locked`` + ``start_appending``) to
    record with instead.  Either way ``session.recorder`` becomes a :class:`Recorder`.
    ``fsync`` defaults to ``$COLOSSEUM_FSYNC`` (on unless it is ``0``).  Raises OSError
    (``logwriter.GameInUse``, ``NotAppendable``, ``FileExistsError``, ...).
    """
    actions = list(session.actions)
    old = session.recorder if isinstance(session.recorder, Recorder) else None
    if header is None:
        header = make_header(session.setup, _seat_kinds(session), resumed_from=resumed_from, reseed=session.reseed)
    if writer is None and append:
        if path is None:
            raise ValueError("append needs the path of an existing log")
        if old is not None and old.path is not None and _same_file(old.path, Path(path)):
            old.close()  # it holds the lock on the very file to append to
        writer = LogWriter.open_append(path, len(actions), fsync=fsync, digest=digest)
    elif writer is None:
        over = session.rules.is_over(session.state)
        if path is None:
            writer = LogWriter.create(
                games_dir(create=True), _stem(session.setup), header, actions, fsync=fsync, end=over
            )
        else:
            writer = LogWriter.create_at(path, header, actions, fsync=fsync, end=over)
    if old is not None:  # kept until now: a new file that cannot be made leaves it recording
        old.close()
    session.recorder = Recorder(session, writer, header=header, fsync=fsync)
    return writer.path


def record_game(session: RecordedSession, *, fsync: bool | None = None) -> Recorder:
    """Save a new game in the games folder as it is played.  Never raises: when the log cannot
    be created the recorder holds the error, the game is kept in memory, and each action
    retries creating the log (the client shows the error in the game)."""
    try:
        start_recording(session, fsync=fsync)
    except OSError as e:
        old = session.recorder if isinstance(session.recorder, Recorder) else None
        if old is not None:
            old.close()
        header = make_header(session.setup, _seat_kinds(session), reseed=session.reseed)
        session.recorder = Recorder(session, None, header=header, error=e, fsync=fsync)
    recorder = session.recorder
    assert isinstance(recorder, Recorder)
    return recorder


def finish_recording(session: object) -> str | None:
    """At the end of the program: write what can still be written (else a copy of the whole
    game wherever one can be written, see :func:`rescue_places`), let go of the log, and return
    a message for the terminal when the log is missing moves (None if all is saved)."""
    rec = getattr(session, "recorder", None)
    if not isinstance(rec, Recorder) or rec.closed:
        return None
    rec.flush()
    unsaved, error, where = rec.unsaved, rec.error, rec.path
    copy = rec.rescue() if unsaved > 0 else None
    rec.close()
    if unsaved <= 0:
        return None
    text = (
        f"the last {unsaved} move{'s' if unsaved != 1 else ''} of the game could not be saved"
        + (f" in {where}" if where else "")
        + (f" ({error})" if error else "")
    )
    if copy is not None:
        return text + f"; a copy of the whole game is in {copy} (continue it: {resume_command(copy)})"
    return text + f"; no copy could be written anywhere ({rec.error})"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _seat_kinds(session: RecordedSession) -> tuple[str, ...]:
    return tuple(s.kind for s in session.seats)


def open_rescued(log: GameLog, folder: Path | None = None) -> LogWriter:
    """A new ``NAME-resumed-N.jsonl`` beside a damaged log (or in ``folder``), holding its valid
    prefix, open and locked for the game to go on in it; the original is left as it is.  A
    fork keeps its parent and its reseed point (the prefix replays the same only with it)."""
    header = make_header(
        log.setup,
        log.seats,
        resumed_from=log.path.name if log.path else None,
        fork_of=log.header.fork_of,
        fork_at=log.header.fork_at,
        reseed=log.header.reseed_point(),
    )
    src = log.path
    stem = re.sub(r"-resumed-\d+$", "", src.stem) if src else "game"
    places = [folder] if folder else []
    if src is not None:
        places.append(src.parent)
    places.append(games_dir())
    last: OSError | None = None
    for place in places:
        try:
            return LogWriter.create(place, f"{stem}-resumed", header, log.actions, first_suffix=1)
        except OSError as e:
            last = e
    raise last or OSError("nowhere to write")


def save_rescued(log: GameLog, folder: Path | None = None) -> Path:
    """:func:`open_rescued`, closed again: the path of the new file."""
    with open_rescued(log, folder) as writer:
        return writer.path


def read_header(path: Path) -> Header | None:
    """The header of the log at ``path`` (only its first line is read); None if it has none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        first = os.pread(fd, 1 << 16, 0).split(b"\n", 1)[0]
        header = _header_dec.decode(first)
        # the setup as its game's own type (the game's spec only: no engine is loaded)
        header.setup = msgspec.convert(header.setup, spec(header.game).setup_type, strict=True)
        printable_header(header)  # a name with ESC in it is read with "?" (core.names)
        return header
    except (OSError, ValueError, msgspec.DecodeError, RecursionError):
        return None
    finally:
        os.close(fd)


_header_dec = msgspec.json.Decoder(Header)


def continuation(path: Path) -> Path | None:
    """The log that a damaged ``path`` was last continued in: the file of its folder whose
    header says it was resumed from ``path``, then the one resumed from that, and so on (None
    if it was never continued)."""
    try:
        siblings = [p for p in path.parent.glob(f"*{SUFFIX}") if p.name != path.name]
    except OSError:
        return None
    resumed: dict[str, Path] = {}
    for p in sorted(siblings):
        h = read_header(p)
        if h is not None and h.resumed_from and h.resumed_from not in resumed:
            resumed[h.resumed_from] = p
    found = None
    seen = {path.name}
    name = path.name
    while name in resumed and resumed[name].name not in seen:
        found = resumed[name]
        seen.add(found.name)
        name = found.name
    return found


# ------------------------------------------------------------------------------ finding games


def saved_games() -> list[Path]:
    """The log files in the games folder (none if there is no folder).  Raises OSError
    (PermissionError...) when the folder or one above it cannot be read."""
    d = games_dir()
    try:
        names = os.listdir(d)
    except (FileNotFoundError, NotADirectoryError):
        return []
    out = []
    for name in names:
        if name.endswith(SUFFIX):
            p = d / name
            try:
                if stat.S_ISREG(p.stat().st_mode):
                    out.append(p)
            except OSError:
                continue
    return out


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


def _exists(p: Path) -> bool:
    """Whether there may be a file at ``p``: False only when there is none.  A folder on the way
    that cannot be searched says True, so that reading the file reports why (``Path.exists``
    raises there)."""
    try:
        os.stat(p)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return False
    except OSError:
        return True
    return True


def resolve_game(name: str) -> Path:
    """A path as given, or a file name (with or without .jsonl) in the games folder."""
    p = Path(name).expanduser()
    if _exists(p) or p.is_absolute() or os.sep in name:
        return p
    try:
        folder = games_dir()
    except (OSError, RuntimeError):  # no home folder to find it in
        return p
    for cand in (folder / name, folder / f"{name}{SUFFIX}"):
        if _exists(cand):
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
