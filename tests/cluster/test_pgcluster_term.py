"""The tests' throwaway PostgreSQL cluster goes when the process holding it gets SIGTERM: a test
run or a benchmark ended by ``kill`` leaves no server running and no folder behind, and the
failover drill (which handles SIGTERM itself) leaves through its ``with`` blocks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pgcluster import find_bin

HOLD = r"""
import signal, sys, time
sys.path.insert(0, {tests!r})
from pgcluster import Cluster
if {own_handler}:  # as scripts/cluster_failover.py
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
with Cluster() as pg:
    try:
        print(pg.root, flush=True)
        time.sleep(120)
    finally:
        print("left", flush=True)
"""


def _postmaster(root: Path) -> int | None:
    """The pid of the cluster's server, while its pid file names a live process."""
    try:
        pid = int((root / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    return pid


def _gone(pid: int, within: float = 30.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize(
    ("own_handler", "left", "status"),
    [
        (False, False, -signal.SIGTERM),  # ended by the signal, as it would have been
        (True, True, 143),  # through the with block's finally, as an exception leaves
    ],
    ids=["no-handler", "program-handles-sigterm"],
)
def test_sigterm_stops_the_cluster_and_removes_its_folder(own_handler: bool, left: bool, status: int) -> None:
    if find_bin() is None:
        if os.environ.get("COLOSSEUM_REQUIRE_PG"):
            pytest.fail("PostgreSQL is required (COLOSSEUM_REQUIRE_PG) but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL is not installed")
    tests = str(Path(__file__).resolve().parents[1])
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(tests=tests, own_handler=own_handler)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line, proc.stderr.read() if proc.stderr else ""
        root = Path(line)
        server = _postmaster(root)
        assert server is not None, "the cluster is not running"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=90)
        assert ("left" in out) is left and proc.returncode == status, (out, err, proc.returncode)
        assert _gone(server), f"the cluster's server {server} still runs after SIGTERM"
        assert not root.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
