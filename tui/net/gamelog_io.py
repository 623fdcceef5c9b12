"""A server table's game log, in the format of ``colosseum.core.gamelog`` (so ``colosseum
view``/``export``/``games`` read it): a header line, then one numbered action per line, each
written and flushed before the action is acknowledged or broadcast.

Chat lines are kept beside it, in ``<id>.chat`` (JSON lines), because the
game-log format has no line kind for chat (a chat line would end the log's valid prefix).

A SIGKILL can leave a partial last line: ``load`` keeps the valid prefix and ``LogWriter.reopen``
cuts the partial line off, so every complete (and therefore acknowledged) action is kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ...core import Action, GameSetup
from ...core import gamelog as GL

_enc = msgspec.json.Encoder()


def chat_path(path: Path) -> Path:
    return Path(path).with_suffix(".chat")  # JSON lines; not *.jsonl, which is for game logs


@dataclass
class Loaded:
    setup: GameSetup
    seats: list[str]
    actions: list[Action] = field(default_factory=list)
    chat: list[dict] = field(default_factory=list)
    good_bytes: int = 0
    damaged: str = ""


def _read_chat(path: Path) -> list[dict]:
    out = []
    try:
        data = chat_path(path).read_bytes()
    except FileNotFoundError:
        return out
    for raw in data.split(b"\n"):
        try:
            c = msgspec.json.decode(raw)
            out.append({k: c[k] for k in ("name", "text", "seat", "time") if k in c})
        except Exception:
            continue  # a partial last line
    return out


def load(path: Path) -> Loaded:
    """The valid prefix of the log at ``path`` (raises GL.GameLogError without a header)."""
    path = Path(path)
    data = path.read_bytes()
    log = GL.parse_log(data, path=path)
    out = Loaded(setup=log.setup, seats=list(log.seats), actions=list(log.actions), chat=_read_chat(path))
    if log.error is None or log.error.kind == "truncated":
        out.good_bytes = data.rfind(b"\n") + 1 if log.error is not None else len(data)
    else:
        out.damaged = str(log.error)
    return out


class LogWriter:
    def __init__(self, path: Path, f, count: int) -> None:
        self.path = Path(path)
        self.f = f
        self.count = count
        self.chat_f = open(chat_path(path), "ab")

    @classmethod
    def create(cls, path: Path, setup: GameSetup, seats: list[str], actions: list[Action] = (),
               resumed_from: str | None = None) -> "LogWriter":
        header = GL.make_header(setup, seats, resumed_from=resumed_from)
        tmp = Path(path).with_suffix(".new")
        with open(tmp, "wb") as f:
            f.write(GL.dump_log(header, actions))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return cls(path, open(path, "ab"), len(actions))

    @classmethod
    def reopen(cls, path: Path, loaded: Loaded) -> "LogWriter":
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

    def chat(self, line) -> None:
        if self.chat_f.closed:
            return
        self.chat_f.write(
            _enc.encode({"name": line.name, "text": line.text, "seat": line.seat, "time": line.time}) + b"\n"
        )
        self.chat_f.flush()

    def close(self) -> None:
        for f in (self.f, self.chat_f):
            if not f.closed:
                f.close()
