"""The outbox: finished games the database could not take yet (it was stopped, unreachable).

``pending.jsonl`` in the server's data folder (0600), one :class:`FinishedGame` per line, each
appended and synced before the table moves on; taken out (the file rewritten without them) only
once the database has them.  Writing a game twice writes it once (its id), so a crash between
the database's commit and the file's rewrite counts nothing twice.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from colosseum.tui.net.host.store.records import FinishedGame

__all__ = ["Pending"]

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(FinishedGame)


class Pending:
    def __init__(self, path: Path) -> None:
        self.path = path

    def add(self, game: FinishedGame) -> None:
        """Keep ``game`` until the database has it (synced: an OSError is the caller's)."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, _enc.encode(game) + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)

    def games(self) -> list[FinishedGame]:
        """What waits, oldest first (a line cut by a crash is skipped: its game was never
        acknowledged)."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        out = []
        for line in data.split(b"\n"):
            if line.strip():
                try:
                    out.append(_dec.decode(line))
                except (msgspec.DecodeError, ValueError):
                    continue
        return out

    def keep_only(self, games: list[FinishedGame]) -> None:
        """Rewrite the file with ``games`` (those still waiting), atomically."""
        if not games:
            self.path.unlink(missing_ok=True)
            return
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"".join(_enc.encode(g) + b"\n" for g in games))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)

    def __len__(self) -> int:
        return len(self.games())
