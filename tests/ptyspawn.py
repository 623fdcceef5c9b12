"""A program started in a pseudo-terminal of a given size, as a person's terminal runs it."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios


def spawn_in_pty(argv: list[str], env: dict[str, str], cols: int, rows: int) -> tuple[subprocess.Popen[bytes], int]:
    """``argv`` on a new pseudo-terminal of ``cols`` x ``rows`` (its own session); the process
    and the terminal's master end (the caller closes it)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    return proc, master
