"""A table's game log: the file, in the format of ``colosseum.core.gamelog`` (so ``colosseum
view``/``export``/``games`` read it), and what the table keeps of it in memory (:class:`TableLog`).

The file is a header line, then one numbered action per line, each written and flushed before
the action is acknowledged or broadcast.  Chat lines are kept in the same file as the game log's
chat lines (``core.gamelog.ChatLine``), and decisions taken back as its undo lines
(``core.gamelog.UndoLine``): ``load`` and :meth:`TableLog.restore` replay them.  Any game's log:
its header names the game, whose rules replay it.

A SIGKILL can leave a partial last line: ``load`` keeps the valid prefix and ``reopen`` cuts the
partial line off, so every complete (and therefore acknowledged) action is kept.  Writing goes
through ``colosseum.core.logwriter.LogWriter``, the one writer local games use too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from colosseum.core import gamelog as GL
from colosseum.core.events import Event
from colosseum.core.game import Rules
from colosseum.core.logread import parse_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.options import SetupBase


@dataclass
class Loaded:
    setup: Any  # the game's setup (the header names the game)
    seats: list[str]
    actions: list[Any] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)  # name, text, seat, time
    good_bytes: int = 0
    damaged: str = ""
    digest: bytes | None = None  # the running digest after the last action (version 2 logs)
    # what was taken back, in file order: (actions in effect after it, the undo line)
    undos: list[tuple[int, GL.UndoLine]] = field(default_factory=list)
    rules: Rules[Any, Any, Any] | None = None
    reseed: tuple[int, int] | None = None  # a fork's new chance from its fork point


def load(path: Path) -> Loaded:
    """The valid prefix of the log at ``path`` (raises GL.GameLogError without a header)."""
    path = Path(path)
    data = path.read_bytes()
    log = parse_log(data, path=path)
    out = Loaded(
        setup=log.setup,
        seats=list(log.seats),
        actions=list(log.actions),
        chat=[{"name": c.name, "text": c.chat, "seat": c.seat, "time": c.time} for c in log.chat],
        digest=log.digest,
        undos=[(w.at, w.line) for w in log.undos],
        rules=log.rules,
        reseed=log.header.reseed_point(),
    )
    if log.error is None or log.error.kind == "truncated":
        out.good_bytes = data.rfind(b"\n") + 1 if log.error is not None else len(data)
    else:
        out.damaged = str(log.error)
    return out


class ChatLike(Protocol):
    """A chat line as the log needs it (``protocol.ChatLine`` is one)."""

    name: str
    text: str
    seat: int
    time: float


def create(
    path: Path, setup: SetupBase, seats: list[str], actions: Sequence[Any] = (), resumed_from: str | None = None
) -> LogWriter:
    """A new log at ``path`` (which must not exist) through the one writer of game logs
    (``colosseum.core.logwriter``: exclusive create, a lock held while open, one write and one
    fsync per line, the running digest)."""
    header = GL.make_header(setup, seats, resumed_from=resumed_from)
    return LogWriter.create_at(path, header, actions)


def reopen(path: Path, loaded: Loaded) -> LogWriter:
    """Continue a table's log after a restart.  A damaged middle is kept aside and the valid
    prefix continues in a fresh file; a partial last line (a killed server) is cut off."""
    if loaded.damaged:
        bad = Path(path).with_suffix(".damaged")
        os.replace(path, bad)
        return create(path, loaded.setup, loaded.seats, loaded.actions, resumed_from=bad.name)
    return LogWriter.open_append(path, len(loaded.actions), drop_partial_line=True, digest=loaded.digest)


def chat_line(line: ChatLike, after: int) -> GL.ChatLine:
    return GL.ChatLine(chat=line.text, name=line.name, seat=line.seat, time=float(line.time), after=after)


class TableLog:
    """What a table keeps of its game: the actions in effect, every event (game events, and the
    notes of what was taken back), where each action's events start (``marks[k]``: the events
    before action ``k``'s; the last mark is the end), and the writer of the file (None until
    the game begins, and again once it is over)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.actions: list[Any] = []
        self.events: list[Event] = []
        self.marks: list[int] = [0]
        self.writer: LogWriter | None = None
        #: with several hosts, each line's second home, the database (``cluster_host``): given
        #: the file's lines so far when the game's log begins, then every write
        self.mirror: Callable[[bytes], None] | None = None

    def _mirrored(self, writer: LogWriter, *, begun: bool) -> LogWriter:
        if self.mirror is not None and writer.mirror is None:
            if begun:  # the header (and a fork's first lines): written before the mirror was on
                self.mirror(self.path.read_bytes())
            writer.mirror = self.mirror
        return writer

    @property
    def open(self) -> bool:
        return self.writer is not None and not self.writer.closed

    def begin(self, setup: SetupBase, seats: list[str], talk: Sequence[ChatLike]) -> None:
        """The game's log, with the talk so far (a fork's log is begun already)."""
        if self.writer is None:
            self.writer = create(self.path, setup, seats)
        self._mirrored(self.writer, begun=True)
        for line in talk:
            self.writer.append_chat(chat_line(line, self.writer.count))

    def append(self, action: Any, events: list[Event], *, final: bool) -> None:
        """``action`` written and synced (OSError: it did not happen), then kept; the last
        action carries the end line."""
        assert self.writer is not None
        self.writer.append_action(action, final=final)
        self.actions.append(action)
        self.events.extend(events)
        self.marks.append(len(self.events))

    #: chat lines a game's log keeps (talk is also rate-limited per connection); beyond, the
    #: talk is still seen at the table but not written, and the log says so once
    MAX_LOGGED_CHAT = 5000

    chat_logged = 0

    def chat(self, line: ChatLike) -> None:
        """A chat line into the file (while the game runs: talk after the end is not kept)."""
        if self.writer is None or self.writer.closed or self.chat_logged > self.MAX_LOGGED_CHAT:
            return
        self.chat_logged += 1
        if self.chat_logged > self.MAX_LOGGED_CHAT:
            note = GL.ChatLine(
                chat=f"(the log keeps the first {self.MAX_LOGGED_CHAT} lines of talk; later talk is not kept)",
                name="",
                seat=-1,
                time=float(line.time),
                after=self.writer.count,
            )
            self.writer.append_chat(note)
            return
        self.writer.append_chat(chat_line(line, self.writer.count))

    def events_of(self, k: int) -> list[Event]:
        """What action ``k`` (0-based) did, with the notes of what was taken back after it."""
        return self.events[self.marks[k] : self.marks[k + 1]]

    def take_back(self, at: int, line: GL.UndoLine) -> tuple[int, Event]:
        """Back to ``at`` actions: the undo line written and synced first (OSError: nothing was
        taken back), then the actions after ``at`` and their events out, the note of it in.
        Returns how many events went, and the note."""
        assert self.writer is not None
        self.writer.append_undo(line)
        dropped = len(self.events) - self.marks[at]
        del self.actions[at:], self.events[self.marks[at] :], self.marks[at + 1 :]
        note = note_event(self.events, line.text, line.seat)
        self.events.append(note)
        self.marks[at] += 1
        return dropped, note

    def restore(self, rules: Rules[Any, Any, Any]) -> tuple[Loaded, Any]:
        """The game read back from the file after a restart (the writer reopened unless it is
        over): what was loaded and the position reached.  The notes of what was taken back
        stand after the position they went back to."""
        loaded = load(self.path)
        state = GL.reseeded(rules.new_game(loaded.setup), 0, loaded.reseed)
        notes: dict[int, list[GL.UndoLine]] = {}
        for at, undo in loaded.undos:
            for k in [k for k in notes if k > at]:
                del notes[k]
            notes.setdefault(at, []).append(undo)
        self.actions, self.events, self.marks = [], [], []

        def noted() -> None:
            for undo in notes.get(len(self.actions), ()):
                self.events.append(note_event(self.events, undo.text, undo.seat))
            self.marks.append(len(self.events))

        noted()
        for a in loaded.actions:
            state, ev = rules.apply(state, a)
            self.actions.append(a)
            state = GL.reseeded(state, len(self.actions), loaded.reseed)
            self.events.extend(ev)
            noted()
        if not rules.is_over(state):
            self.writer = self._mirrored(reopen(self.path, loaded), begun=False)
        return loaded, state

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    def abandon(self) -> None:
        """A log begun for a game that did not start after all (its start was not saved): the
        file gone, so that a start tried again begins it afresh (and its mirror, if any)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.path.unlink(missing_ok=True)
        if self.mirror is not None and hasattr(self.mirror, "abandon"):
            self.mirror.abandon()


def note_event(events: Sequence[Event], text: str, seat: int) -> Event:
    """The log's line for a take-back, dated as the game's last event before it (each game's
    own words for when: ``Event.round`` and ``phase``)."""
    last = next((e for e in reversed(events) if e.kind not in ("undo", "chat")), None)
    return Event(kind="undo", text=text, seat=seat, round=last.round if last else 0, phase=last.phase if last else "")
