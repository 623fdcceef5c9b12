"""The one writer of game log files (the format of :mod:`colosseum.core.gamelog`), for the
client's autosave and for the tables of ``colosseum serve`` alike.  No UI, no event loop.

Durability, the same for every log:

* A log is created exclusively (``O_CREAT | O_EXCL``: never over an existing file) with its
  header and the actions already played in one ``write``; the file and then its folder are
  fsynced, so the new name survives a power cut too.
* While a writer is open it holds an exclusive ``flock`` on the file: two processes never append
  to the same game (:class:`GameInUse`).  The system drops the lock when the process ends,
  however it ends.
* Every further line (an action or a chat line) is one ``os.write`` of the whole line on an
  ``O_APPEND`` descriptor: nothing is buffered in this process, so killing it loses at most the
  line being written, and a partial line can only be the last one (``parse_log`` reports it as
  "truncated" and keeps everything before it).
* Each line is also fsynced (forced to the disk, so it survives a power cut or a kernel crash)
  unless ``COLOSSEUM_FSYNC=0``.  Measured with ``benchmarks/bench_log.py`` on this project's
  machine (ext4 on a virtio disk, ~90-byte lines): ``write`` alone ~2 us a line (~560,000
  lines/s); ``write`` + ``fsync`` ~190 us a line (~5,300 lines/s; up to ~1 ms while other
  processes load the disk).  The engine and a bot take ~65 us per action (``colosseum
  simulate``: ~15,000 actions/s), so a bots-only game runs about 3x slower, but a fraction of a
  millisecond per move is nothing beside a player's pace or the bots' delay (0.6 s): on by
  default.
* After a failed write the writer closes itself: no line is ever appended after a partial one.

Errors are :class:`OSError` (the system's, or the subclasses below), with a message a caller
can show as it is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

import msgspec

from .actions import Action
from .gamelog import ChatLine, Header, dump_log, encode_action_line, encode_chat_line

FSYNC_ENV = "COLOSSEUM_FSYNC"
SUFFIX = ".jsonl"


def fsync_default() -> bool:
    """Fsync every line unless ``$COLOSSEUM_FSYNC`` is ``0`` (or off/no/false)."""
    return os.environ.get(FSYNC_ENV, "").strip().lower() not in ("0", "off", "no", "false")


class LogFileError(OSError):
    """A game log cannot be written as asked (``str(err)`` says why, naming the file)."""


class GameInUse(LogFileError):
    """Another process (or another writer in this one) is recording this game."""


class NotAppendable(LogFileError):
    """The file is not a log that new actions can follow: it is empty, its last line is
    incomplete, or it does not hold the number of actions the caller read from it."""


class LogClosed(LogFileError):
    """The writer was closed (by ``close()`` or after a failed write)."""


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until all of ``data`` is written (a regular file takes it in one call)."""
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


def _lock(fd: int, path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no locking
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise GameInUse(f"{path.name} is being played in another colosseum window") from None
    except OSError:  # a file system without locks: record anyway
        pass


def _fsync_folder(folder: Path) -> None:
    """Make a new name in ``folder`` durable (POSIX; elsewhere the file's fsync is all there is)."""
    flags = getattr(os, "O_DIRECTORY", None)
    if flags is None:  # pragma: no cover - Windows
        return
    try:
        fd = os.open(folder, os.O_RDONLY | flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse to fsync a folder; the file itself is on disk
        pass
    finally:
        os.close(fd)


class _Numbered(msgspec.Struct):
    i: object = None
    chat: object = None
    format: object = None


_numbered_dec = msgspec.json.Decoder(_Numbered)


def _tail_lines(fd: int, size: int, block: int = 8192) -> Iterable[bytes]:
    """The file's lines from the last one back, without their newlines (read in blocks)."""
    pos = size
    rest = b""
    while pos > 0:
        start = max(0, pos - block)
        parts = (os.pread(fd, pos - start, start) + rest).split(b"\n")
        pos = start
        rest = parts[0]
        yield from reversed(parts[1:])
    yield rest


class LogWriter:
    """An open game log that lines are appended to.  Make one with :meth:`create`,
    :meth:`create_at` or :meth:`open_append`; ``count`` is the number of actions in the file
    (the next action is number ``count + 1``)."""

    def __init__(self, fd: int, path: Path, count: int, *, fsync: bool) -> None:
        self._fd: int | None = fd
        self.path = path
        self.count = count
        self.fsync = fsync

    # ------------------------------------------------------------------ opening

    @classmethod
    def create(
        cls,
        folder: str | Path,
        stem: str,
        header: Header,
        actions: Iterable[Action] = (),
        *,
        first_suffix: int | None = None,
        fsync: bool | None = None,
    ) -> LogWriter:
        """A new log ``folder/stem.jsonl``, or ``stem-2.jsonl``, ``stem-3.jsonl``... if that name
        is taken (``first_suffix``: start at ``stem-N.jsonl``), holding ``header`` and
        ``actions``.  The folder is created if needed."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        n = first_suffix
        while True:
            path = folder / (f"{stem}-{n}{SUFFIX}" if n is not None else f"{stem}{SUFFIX}")
            try:
                return cls.create_at(path, header, actions, fsync=fsync)
            except FileExistsError:
                n = 2 if n is None else n + 1

    @classmethod
    def create_at(
        cls, path: str | Path, header: Header, actions: Iterable[Action] = (), *, fsync: bool | None = None
    ) -> LogWriter:
        """A new log at exactly ``path`` (``FileExistsError`` if there is a file already)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        actions = list(actions)
        data = dump_log(header, actions)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        try:
            _lock(fd, path)
            write_all(fd, data)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            try:  # the file is ours and incomplete: leave nothing half-written behind
                path.unlink()
            except OSError:
                pass
            raise
        _fsync_folder(path.parent)
        return cls(fd, path, len(actions), fsync=fsync_default() if fsync is None else fsync)

    @classmethod
    def open_append(
        cls,
        path: str | Path,
        expected_actions: int,
        *,
        fsync: bool | None = None,
        drop_partial_line: bool = False,
    ) -> LogWriter:
        """Continue the log at ``path``, which holds ``expected_actions`` actions (as read with
        ``gamelog.read_log`` / ``parse_log``).  An incomplete last line (a writer killed while
        writing it) is cut off with ``drop_partial_line``, else refused.  Raises
        :class:`GameInUse`, :class:`NotAppendable`, or the system's OSError."""
        path = Path(path)
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
        try:
            _lock(fd, path)
            size = os.fstat(fd).st_size
            if size == 0:
                raise NotAppendable(f"{path.name} is empty")
            if os.pread(fd, 1, size - 1) != b"\n":
                keep = cls._complete_size(fd, size)
                if not drop_partial_line or keep == 0:
                    raise NotAppendable(f"{path.name} does not end with a complete line")
                os.ftruncate(fd, keep)
                os.fsync(fd)
                size = keep
            found = cls._last_action_number(fd, size)
            if found is not None and found != expected_actions:
                raise NotAppendable(f"{path.name} holds {found} actions, not {expected_actions}")
        except BaseException:
            os.close(fd)
            raise
        return cls(fd, path, expected_actions, fsync=fsync_default() if fsync is None else fsync)

    @staticmethod
    def _complete_size(fd: int, size: int) -> int:
        """Bytes up to and including the last newline (0 if there is none)."""
        pos = size
        while pos > 0:
            start = max(0, pos - 8192)
            chunk = os.pread(fd, pos - start, start)
            nl = chunk.rfind(b"\n")
            if nl >= 0:
                return start + nl + 1
            pos = start
        return 0

    @staticmethod
    def _last_action_number(fd: int, size: int) -> int | None:
        """The number (``"i"``) of the last action line; 0 if the header is the last line that
        is not chat; None when the last action line carries no number (it is optional)."""
        for raw in _tail_lines(fd, size):
            if not raw.strip():
                continue
            try:
                line = _numbered_dec.decode(raw)
            except (msgspec.DecodeError, RecursionError):
                return None  # not ours to judge: the reader reports damaged lines
            if line.chat is not None:
                continue
            if line.format is not None:
                return 0
            if isinstance(line.i, int) and not isinstance(line.i, bool):
                return line.i
            return None
        return None

    # ------------------------------------------------------------------ writing

    @property
    def closed(self) -> bool:
        return self._fd is None

    @property
    def fd(self) -> int | None:
        """The file descriptor (None once closed)."""
        return self._fd

    def append_action(self, action: Action, number: int | None = None) -> None:
        """Append ``action`` as number ``count + 1`` (``number``, if given, must be that)."""
        n = self.count + 1
        if number is not None and number != n:
            raise ValueError(f"action number {number} where {n} comes next in {self.path.name}")
        self._write(encode_action_line(action, n))
        self.count = n

    def append_chat(self, line: ChatLine) -> None:
        """Append a chat line (its ``after`` is usually ``self.count``)."""
        self._write(encode_chat_line(line))

    def _write(self, data: bytes) -> None:
        fd = self._fd
        if fd is None:
            raise LogClosed(f"{self.path.name} is closed")
        try:
            write_all(fd, data)
            if self.fsync:
                os.fsync(fd)
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        """Close the file (and drop the lock).  Safe to call more than once."""
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - a writer dropped without close()
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._fd is None else f"{self.count} actions"
        return f"LogWriter({str(self.path)!r}, {state})"
