"""A server table's game log, in the format of ``colosseum.core.gamelog`` (so ``colosseum
view``/``export``/``games`` read it): a header line, then one numbered action per line, each
written and flushed before the action is acknowledged or broadcast.

Chat lines are kept in the same file as the game log's chat lines (``core.gamelog.ChatLine``).

A SIGKILL can leave a partial last line: ``load`` keeps the valid prefix and ``LogWriter.reopen``
cuts the partial line off, so every complete (and therefore acknowledged) action is kept.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import msgspec

from colosseum.core import Action, GameSetup
from colosseum.core import gamelog as GL

_enc = msgspec.json.Encoder()


@dataclass
class Loaded:
    setup: GameSetup
    seats: list[str]
    actions: list[Action] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)  # name, text, seat, time
    good_bytes: int = 0
    damaged: str = ""


def load(path: Path) -> Loaded:
    """The valid prefix of the log at ``path`` (raises GL.GameLogError without a header)."""
    path = Path(path)
    data = path.read_bytes()
    log = GL.parse_log(data, path=path)
    out = Loaded(
        setup=log.setup,
        seats=list(log.seats),
        actions=list(log.actions),
        chat=[{"name": c.name, "text": c.chat, "seat": c.seat, "time": c.time} for c in log.chat],
    )
    if log.error is None or log.error.kind == "truncated":
        out.good_bytes = data.rfind(b"\n") + 1 if log.error is not None else len(data)
    else:
        out.damaged = str(log.error)
    return out


class ChatLike(Protocol):
    """A chat line as the writer needs it (``protocol.ChatLine`` is one)."""

    name: str
    text: str
    seat: int
    time: float


class LogWriter:
    """Appends a table's actions and chat lines to its log, each flushed as written."""

    def __init__(self, path: Path, f: BinaryIO, count: int) -> None:
        self.path = Path(path)
        self.f = f
        self.count = count

    @classmethod
    def create(
        cls,
        path: Path,
        setup: GameSetup,
        seats: list[str],
        actions: Sequence[Action] = (),
        resumed_from: str | None = None,
    ) -> LogWriter:
        header = GL.make_header(setup, seats, resumed_from=resumed_from)
        tmp = Path(path).with_suffix(".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the owner's only
        with os.fdopen(fd, "wb") as f:
            f.write(GL.dump_log(header, actions))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return cls(path, open(path, "ab"), len(actions))

    @classmethod
    def reopen(cls, path: Path, loaded: Loaded) -> LogWriter:
        if loaded.damaged:
            # a damaged middle: keep the damaged file, continue in a fresh one from the prefix
            bad = Path(path).with_suffix(".damaged")
            os.replace(path, bad)
            return cls.create(path, loaded.setup, loaded.seats, loaded.actions, resumed_from=bad.name)
        f = open(path, "r+b")
        f.truncate(loaded.good_bytes)
        f.close()
        return cls(path, open(path, "ab"), len(loaded.actions))

    def action(self, action: Action) -> None:
        if self.f.closed:
            raise OSError("the game log is closed")
        self.count += 1
        self.f.write(GL.encode_action_line(action, self.count))
        self.f.flush()  # in the kernel now: survives a SIGKILL of the server

    def chat(self, line: ChatLike) -> None:
        if self.f.closed:
            return
        self.f.write(
            GL.encode_chat_line(
                GL.ChatLine(chat=line.text, name=line.name, seat=line.seat, time=float(line.time), after=self.count)
            )
        )
        self.f.flush()

    def close(self) -> None:
        if not self.f.closed:
            self.f.close()
