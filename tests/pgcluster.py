"""A throwaway PostgreSQL cluster for the tests: ``initdb`` and ``pg_ctl`` of the installed
PostgreSQL (15 here), run as an unprivileged user when the tests run as root (initdb refuses
root), on a free loopback port, its files in a temporary folder, stopped and removed after.

``COLOSSEUM_REQUIRE_PG=1`` (CI sets it) makes a missing PostgreSQL a failure instead of a skip.

A process holding a cluster that gets SIGTERM (``kill``, a CI time limit) stops the cluster and
removes its folder, then ends as SIGTERM ends it: by default Python ends at once and the cluster
would go on running.  A program that handles SIGTERM itself (the drill scripts raise SystemExit,
which leaves through every ``with``) is left to do so.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["Cluster", "cluster_or_skip", "find_bin"]


def find_bin() -> Path | None:
    """The folder of initdb/pg_ctl, or None."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent  # (a link in /usr/local/bin: the folder with createdb too)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``with Cluster() as pg: pg.url("colosseum")``; ``pg.stop()`` and ``pg.start()`` for the
    tests that take the database away."""

    def __init__(self) -> None:
        bindir = find_bin()
        if bindir is None:
            raise FileNotFoundError("PostgreSQL's initdb/pg_ctl are not installed")
        self.bin = bindir
        self.root = Path(tempfile.mkdtemp(prefix="colosseum-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres" if _has_user("postgres") else "nobody"
            os.chmod(self.root, 0o777)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a") as f:
            f.write(
                f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.root}'\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 60\n"
            )
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "colosseum")

    def _run(self, program: str, *args: str) -> None:
        cmd = [str(self.bin / program), *args]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, database: str = "colosseum") -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def fresh_database(self) -> str:
        """A new empty database's URL (each test its own)."""
        name = f"t{int(time.time() * 1000) % 10**9}_{os.getpid()}_{id(self) % 997}_{_counter()}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url(name)

    def close(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Cluster:
        _LIVE.append(self)
        # (a handler can only be set from the main thread; one the program set is left alone)
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (
            signal.SIG_DFL,
            None,
        ):
            signal.signal(signal.SIGTERM, _terminated)
        return self

    def __exit__(self, *exc: object) -> None:
        if self in _LIVE:
            _LIVE.remove(self)
        if not _LIVE and signal.getsignal(signal.SIGTERM) is _terminated:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        self.close()


#: the clusters of this process not yet closed (SIGTERM closes them)
_LIVE: list[Cluster] = []


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM with no handler of the program's: the clusters closed, then ended by the signal."""
    for cluster in list(_LIVE):
        try:
            cluster.close()
        except Exception:  # noqa: BLE001 - the others still to close, then the process to end
            pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


_n = 0


def _counter() -> int:
    global _n
    _n += 1
    return _n


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


@contextmanager
def cluster_or_skip() -> Iterator[Cluster]:
    """A throwaway cluster for a fixture: the test is skipped where PostgreSQL is not installed
    (failed instead under ``COLOSSEUM_REQUIRE_PG``, as CI sets)."""
    import pytest

    if find_bin() is None:
        if os.environ.get("COLOSSEUM_REQUIRE_PG"):
            pytest.fail("PostgreSQL is required (COLOSSEUM_REQUIRE_PG) but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL is not installed")
    with Cluster() as cluster:
        yield cluster
