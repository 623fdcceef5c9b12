"""The table server's data folder: files only their owner can read, written whole or not at
all, and the finished games' list read backwards (a page of a long history costs what it
shows).

Files in the data folder::

    tables/<id>.json     a live table's description (``meta.TableMeta``), rewritten atomically
    games/<id>.jsonl     the game log (see ``gamelog_io``): header, then one line per action
                         and per chat line, synced as written
    history/<id>.json    a finished table's description (moved from tables/)
    history.jsonl        one line per finished game (``protocol.HistoryInfo``), oldest first
    secret               the token key (0600)

Folders are created 0700 and files 0600.
"""

from __future__ import annotations

import os
from pathlib import Path


def private_dir(path: Path) -> None:
    """``path`` as a folder only its owner can enter (created 0700, or made so)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)


def write_private(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Replace ``path`` atomically by ``data``, readable by its owner only (0600)."""
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk: no half-written file left behind, the old one stands
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def append_private(path: Path, line: bytes) -> None:
    """``line`` added at the end of ``path`` (created 0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "ab") as f:
        f.write(line)


def count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def tail_lines(path: Path, skip: int, count: int, block: int = 1 << 16) -> list[bytes]:
    """Lines ``skip`` .. ``skip + count`` of ``path`` counted from its end (newest first),
    read backwards in blocks: a page of a long history costs what it shows."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return []
    with f:
        end = f.seek(0, os.SEEK_END)
        out: list[bytes] = []
        seen = 0
        rest = b""
        pos = end
        while pos > 0 and len(out) < count:
            step = min(block, pos)
            pos -= step
            f.seek(pos)
            chunk = f.read(step) + rest
            lines = chunk.split(b"\n")
            rest = lines[0] if pos > 0 else b""
            body = lines[1:] if pos > 0 else lines
            for line in reversed(body):
                if not line.strip():
                    continue
                if seen >= skip:
                    out.append(line)
                    if len(out) >= count:
                        break
                seen += 1
        return out


def default_data_dir() -> Path:
    """The server's data folder when ``--data`` is not given."""
    try:
        import platformdirs

        return Path(platformdirs.user_data_dir("colosseum")) / "server"
    except (ImportError, OSError):  # pragma: no cover
        return Path.home() / ".colosseum" / "server"
