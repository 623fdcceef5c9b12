"""The tests' throwaway PostgreSQL cluster goes when the process holding it gets SIGTERM: a long
drill (``scripts/cluster_failover.py``) or a CI run ended by ``kill`` leaves no server running
and no folder behind."""

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
import sys, time
sys.path.insert(0, {tests!r})
from pgcluster import Cluster
with Cluster() as pg:
    print(pg.root, flush=True)
    try:
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


def test_sigterm_stops_the_cluster_and_removes_its_folder() -> None:
    if find_bin() is None:
        if os.environ.get("COLOSSEUM_REQUIRE_PG"):
            pytest.fail("PostgreSQL is required (COLOSSEUM_REQUIRE_PG) but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL is not installed")
    tests = str(Path(__file__).resolve().parents[1])
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(tests=tests)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line, proc.stderr.read() if proc.stderr else ""
        root = Path(line)
        server = _postmaster(root)
        assert server is not None, "the cluster is not running"
        proc.send_signal(signal.SIGTERM)
        out, _err = proc.communicate(timeout=90)
        assert "left" in out  # through the with block's finally, as an exception leaves
        assert proc.returncode == 128 + signal.SIGTERM
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the cluster's server {server} still runs after SIGTERM")
        assert not root.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
