"""A server table's game log, in the format of ``colosseum.core.gamelog`` (so ``colosseum
view``/``export``/``games`` read it): a header line, then one numbered action per line, each
written and flushed before the action is acknowledged or broadcast.

Chat lines are kept in the same file as the game log's chat lines (``core.gamelog.ChatLine``),
and decisions taken back as its undo lines (``core.gamelog.UndoLine``): ``load`` replays them.

A SIGKILL can leave a partial last line: ``load`` keeps the valid prefix and ``reopen`` cuts the
partial line off, so every complete (and therefore acknowledged) action is kept.  Writing goes
through ``colosseum.core.logwriter.LogWriter``, the one writer local games use too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from colosseum.core import gamelog as GL
from colosseum.core.games.colosseum import Action, GameSetup
from colosseum.core.logread import parse_log
from colosseum.core.logwriter import LogWriter


@dataclass
class Loaded:
    setup: GameSetup
    seats: list[str]
    actions: list[Action] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)  # name, text, seat, time
    good_bytes: int = 0
    damaged: str = ""
    digest: bytes | None = None  # the running digest after the last action (version 2 logs)
    # what was taken back, in file order: (actions in effect after it, the undo line)
    undos: list[tuple[int, GL.UndoLine]] = field(default_factory=list)


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
    path: Path, setup: GameSetup, seats: list[str], actions: Sequence[Action] = (), resumed_from: str | None = None
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
