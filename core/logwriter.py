"""The one writer of game log files (the format of :mod:`colosseum.core.gamelog`), for the
client's autosave and for the tables of ``colosseum serve`` alike.  No UI, no event loop.

Durability, the same for every log:

* A log is created exclusively (``O_CREAT | O_EXCL``: never over an existing file) with its
  header and the actions already played in one ``write``; the file and then its folder are
  fsynced, so the new name survives a power cut too.
* While a writer is open it holds an exclusive ``flock`` on the file: two processes never append
  to the same game (:class:`GameInUse`).  The system drops the lock when the process ends,
  however it ends.
* Every further line (an action, undo or chat line) is one ``os.write`` of the whole line on an
  ``O_APPEND`` descriptor: nothing is buffered in this process, so killing it loses at most the
  line being written, and a partial line can only be the last one (``parse_log`` reports it as
  "truncated" and keeps everything before it).
* Each line is also fsynced (forced to the disk, so it survives a power cut or a kernel crash)
  unless ``COLOSSEUM_FSYNC=0``: one policy for every log, a line at a time (not batched per
  turn: a move is on the disk before the game goes on).  Measured with
  ``benchmarks/bench_log.py`` on this project's machine (ext4 on a virtio disk, ~110-byte
  lines): ``write`` alone ~3.5 us a line (~290,000 lines/s); ``write`` + ``fsync`` ~0.2 ms a
  line when the disk is quiet, 1.5-3.6 ms while other processes load it.  A move costs the
  engine ~6 us, so a bots-only game with no delay runs slower, but a few milliseconds per move
  are nothing beside a player's pace or the bots' delay (0.6 s): on by default.  The line's
  digest (format version 2) adds ~0.7 us.  ``scripts/kill_test.py --power`` checks that a
  power cut after any kill loses no action that was reported played.
* A failed write is cut off again (``ftruncate`` back to the last complete line; if even that
  fails, before the next write): no line is ever appended after a partial one.  The writer
  stays open and keeps its lock, so the caller can write the same lines again once the disk
  has room (the client keeps unsaved actions in memory and retries; see ``tui.storage``).
* The lock is taken before the file is read to be continued (:meth:`LogWriter.open_locked`),
  and :meth:`LogWriter.start_appending` checks that the file still ends with the action (count
  and digest) that was read.  It is held until the writer is closed, also after the game ends.
* Lines carry the running digest of format version 2, and a finished game gets its end line in
  the same write as its last action (see :mod:`colosseum.core.gamelog`).

Errors are :class:`OSError` (the system's, or the subclasses below), with a message a caller
can show as it is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType

import msgspec

from colosseum.core.gamelog import (
    Action,
    Chain,
    ChatLine,
    GameLogError,
    Header,
    HintLine,
    UndoLine,
    chain_start,
    encode_chat_line,
    encode_hint_line,
    written_version,
)
from colosseum.core.logread import read_fd

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
    """The writer was closed, or the game's end line is written."""


class _Version(msgspec.Struct):
    version: object = None


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
    end: object = None
    undo: object = None
    h: object = None


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


def _first_line(fd: int, size: int) -> bytes:
    """Line 1 (without its newline)."""
    data = b""
    while len(data) < size:
        chunk = os.pread(fd, 65536, len(data))
        if not chunk:
            break
        nl = chunk.find(b"\n")
        if nl >= 0:
            return data + chunk[:nl]
        data += chunk
    return data


class LogWriter:
    """An open game log that lines are appended to.  Make one with :meth:`create`,
    :meth:`create_at`, :meth:`open_append`, or :meth:`open_locked` then :meth:`start_appending`;
    ``count`` is the number of actions in the file (the next action is number ``count + 1``).

    The writer holds the file's lock from the moment it is opened until :meth:`close` (or the
    end of the process): a write error does not close it.  A failed write is cut off the file
    again (``ftruncate`` to the last complete line), so the same lines can be written later."""

    def __init__(self, fd: int, path: Path, chain: Chain | None, size: int, *, fsync: bool) -> None:
        self._fd: int | None = fd
        self.path = path
        self._chain = chain  # None: opened and locked, not yet ready to append
        self.size = size  # bytes of complete lines in the file (what a failed write is cut back to)
        self.fsync = fsync
        self.ended = False  # the end line is written: nothing may follow
        self._dirty = False  # a failed write may have left bytes past ``size``
        #: a second home for every line (a server's database, issue 30): called with each
        #: write's bytes once they are in the file; if it raises (an OSError), the write is cut
        #: off the file again, so the file never holds a line the mirror lacks
        self.mirror: Callable[[bytes], None] | None = None

    @property
    def count(self) -> int:
        return self._chain.count if self._chain is not None else 0

    @property
    def digest(self) -> bytes | None:
        """The running digest after the last action (None for a version 1 log)."""
        return self._chain.digest if self._chain is not None else None

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
        end: bool = False,
    ) -> LogWriter:
        """A new log ``folder/stem.jsonl``, or ``stem-2.jsonl``, ``stem-3.jsonl``... if that name
        is taken (``first_suffix``: start at ``stem-N.jsonl``), holding ``header`` and
        ``actions`` (and the end line if ``end``: the game is over).  The folder is created if
        needed."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        n = first_suffix
        while True:
            path = folder / (f"{stem}-{n}{SUFFIX}" if n is not None else f"{stem}{SUFFIX}")
            try:
                return cls.create_at(path, header, actions, fsync=fsync, end=end)
            except FileExistsError:
                n = 2 if n is None else n + 1

    @classmethod
    def create_at(
        cls,
        path: str | Path,
        header: Header,
        actions: Iterable[Action] = (),
        *,
        fsync: bool | None = None,
        end: bool = False,
    ) -> LogWriter:
        """A new log at exactly ``path`` (``FileExistsError`` if there is a file already).  The
        header is written as ``FORMAT_VERSION`` (lines with digests), or ``SETUP_VERSION`` when its
        setup needs a newer reader."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        version = written_version(header)
        if header.version != version:
            header = msgspec.structs.replace(header, version=version)
        chain, head = Chain.for_header(header)
        parts = [head]
        parts.extend(chain.action_line(a) for a in actions)
        if end:
            parts.append(chain.end_line())
        data = b"".join(parts)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)  # chat is private
        try:
            _lock(fd, path)
            write_all(fd, data)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            try:  # the file is ours and incomplete: leave nothing half-written (nor empty) behind
                path.unlink()
            except OSError:
                pass
            raise
        _fsync_folder(path.parent)
        writer = cls(fd, path, chain, len(data), fsync=fsync_default() if fsync is None else fsync)
        writer.ended = end
        return writer

    @classmethod
    def open_locked(cls, path: str | Path, *, fsync: bool | None = None) -> tuple[LogWriter, bytes]:
        """Open the existing log at ``path``, lock it, and read it whole under the lock: nobody
        can append between this read and this writer's first line.  Parse the bytes
        (``gamelog.parse_log``), then call :meth:`start_appending`.  Raises :class:`GameInUse`,
        :class:`NotAppendable` (not a regular file, too large) or the system's OSError."""
        path = Path(path)
        flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags)
        try:
            _lock(fd, path)
            try:
                data = read_fd(fd, path)
            except GameLogError as e:
                raise NotAppendable(str(e)) from None
        except BaseException:
            os.close(fd)
            raise
        return cls(fd, path, None, len(data), fsync=fsync_default() if fsync is None else fsync), data

    @classmethod
    def open_append(
        cls,
        path: str | Path,
        expected_actions: int,
        *,
        fsync: bool | None = None,
        drop_partial_line: bool = False,
        digest: bytes | None = None,
    ) -> LogWriter:
        """Continue the log at ``path``, which holds ``expected_actions`` actions (as read with
        ``gamelog.read_log`` / ``parse_log``; ``digest``: its ``GameLog.digest``, checked too).
        An incomplete last line (a writer killed while writing it) is cut off with
        ``drop_partial_line``, else refused.  Raises :class:`GameInUse`, :class:`NotAppendable`,
        or the system's OSError."""
        path = Path(path)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        writer = cls(fd, path, None, 0, fsync=fsync_default() if fsync is None else fsync)
        try:
            _lock(fd, path)
            writer.start_appending(expected_actions, digest=digest, drop_partial_line=drop_partial_line)
        except BaseException:
            writer.close()
            raise
        return writer

    def start_appending(
        self, expected_actions: int, *, digest: bytes | None = None, drop_partial_line: bool = False
    ) -> None:
        """Check that the locked file is still the log that was read (``expected_actions``
        actions and, for a version 2 log, ``digest`` after them, when given) and get ready to
        append after it.  Raises :class:`NotAppendable` (the writer stays open: close it)."""
        fd = self._fd
        if fd is None:
            raise LogClosed(f"{self.path.name} is closed")
        path = self.path
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAppendable(f"{path.name} is not a regular file")
        size = info.st_size
        if size == 0:
            raise NotAppendable(f"{path.name} is empty")
        if os.pread(fd, 1, size - 1) != b"\n":
            keep = self._complete_size(fd, size)
            if not drop_partial_line or keep == 0:
                raise NotAppendable(f"{path.name} does not end with a complete line")
            os.ftruncate(fd, keep)
            os.fsync(fd)
            size = keep
        header_line = _first_line(fd, size)
        try:
            version = msgspec.json.decode(header_line, type=_Version).version
        except (msgspec.DecodeError, RecursionError):
            raise NotAppendable(f"{path.name} has no game log header") from None
        found, found_digest, ended = self._last_action(fd, size)
        if ended:
            raise NotAppendable(f"the game in {path.name} is over")
        if found is not None and found != expected_actions:
            raise NotAppendable(
                f"{path.name} holds {found} actions, not {expected_actions} (it changed since it was read)"
            )
        chain_digest: bytes | None = None
        if isinstance(version, int) and version >= 2:
            if found == 0 and found_digest is None:  # the header (an undo of every action has "h")
                chain_digest = chain_start(header_line)
            elif isinstance(found_digest, str):
                try:
                    chain_digest = bytes.fromhex(found_digest)
                except ValueError:
                    chain_digest = None
            if chain_digest is None:
                raise NotAppendable(f"{path.name}: the last action carries no digest")
            if digest is not None and digest != chain_digest:
                raise NotAppendable(f"{path.name} changed since it was read (its last action is not the one read)")
        self._chain = Chain(chain_digest, expected_actions)
        self.size = size

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
    def _last_action(fd: int, size: int) -> tuple[int | None, object, bool]:
        """(actions in effect after the last action or undo line, its ``"h"``, whether an end line
        follows it): the last action line's number ``"i"``; ``undo - 1`` after an undo line; 0 if
        the header is the last line that is not chat; None when the last action line carries no
        number (it is optional in version 1)."""
        ended = False
        for raw in _tail_lines(fd, size):
            if not raw.strip():
                continue
            try:
                line = _numbered_dec.decode(raw)
            except (msgspec.DecodeError, RecursionError):
                return None, None, ended  # not ours to judge: the reader reports damaged lines
            if line.chat is not None:
                continue
            if line.end is not None:
                ended = True
                continue
            if line.format is not None:
                return 0, None, ended
            if isinstance(line.undo, int) and not isinstance(line.undo, bool):
                return line.undo - 1, line.h, ended  # an undo line: the next action reuses its number
            if isinstance(line.i, int) and not isinstance(line.i, bool):
                return line.i, line.h, ended
            return None, line.h, ended
        return None, None, ended

    # ------------------------------------------------------------------ writing

    @property
    def closed(self) -> bool:
        return self._fd is None

    @property
    def fd(self) -> int | None:
        """The file descriptor (None once closed)."""
        return self._fd

    def append_action(self, action: Action, number: int | None = None, *, final: bool = False) -> None:
        """Append ``action`` as number ``count + 1`` (``number``, if given, must be that); with
        ``final`` (the game is over after it) the end line too, in the same write."""
        chain = self._chain
        if chain is None:
            raise NotAppendable(f"{self.path.name}: not ready to append (start_appending first)")
        if self.ended:
            raise LogClosed(f"the game in {self.path.name} is over: nothing can follow its end")
        n = chain.count + 1
        if number is not None and number != n:
            raise ValueError(f"action number {number} where {n} comes next in {self.path.name}")
        nxt = chain.copy()
        data = nxt.action_line(action)
        if final:
            data += nxt.end_line()
        self._write(data)
        self._chain = nxt
        self.ended = final and nxt.digest is not None

    def append_undo(self, line: UndoLine) -> None:
        """Append an undo line withdrawing actions ``line.undo`` to ``line.through`` (the last
        ones in effect: ``through`` must be ``count``); in the chain like an action line.
        ``count`` becomes ``line.undo - 1``: the next action reuses the first withdrawn number."""
        chain = self._chain
        if chain is None:
            raise NotAppendable(f"{self.path.name}: not ready to append (start_appending first)")
        if self.ended:
            raise LogClosed(f"the game in {self.path.name} is over: nothing can follow its end")
        nxt = chain.copy()
        data = nxt.undo_line(line)  # ValueError if it does not withdraw the last actions
        self._write(data)
        self._chain = nxt

    def append_end(self) -> None:
        """Write the end line (the game is over after the last action) if it is not there yet:
        for a caller that learns of the end after appending the last action.  Prefer
        ``append_action(last, final=True)``: one write, so no cut can fall between them."""
        chain = self._chain
        if chain is None or self.ended or chain.digest is None:
            return
        self._write(chain.end_line())
        self.ended = True

    def append_chat(self, line: ChatLine) -> None:
        """Append a chat line (its ``after`` is usually ``self.count``)."""
        self._write(encode_chat_line(line))

    def append_hint(self, line: HintLine) -> None:
        """Append a hint line (not an action, not in the chain: like a chat line)."""
        self._write(encode_hint_line(line))

    def _write(self, data: bytes) -> None:
        fd = self._fd
        if fd is None:
            raise LogClosed(f"{self.path.name} is closed")
        if self._dirty:  # what a failed write left must go before anything follows it
            os.ftruncate(fd, self.size)
            self._dirty = False
        try:
            write_all(fd, data)
            if self.fsync:
                os.fsync(fd)
            if self.mirror is not None:
                self.mirror(data)
        except OSError:
            self._dirty = True
            try:
                os.ftruncate(fd, self.size)
                self._dirty = False
            except OSError:
                pass
            raise
        self.size += len(data)

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
