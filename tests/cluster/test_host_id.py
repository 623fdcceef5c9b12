"""One id, one host: a second ``colosseum serve --host-id`` with the id of a host that is alive
(heard from within a lease) refuses to start, in one line (it used to start and adopt the live
host's tables, splitting the lobby); once that host stopped, the id may be used at once."""

from __future__ import annotations

import signal
import subprocess

import pytest
from clusterdrill import Host
from pgcluster import cluster_or_skip


@pytest.fixture(scope="module")
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


def test_a_second_host_with_a_live_hosts_id_refuses_to_start(pg, tmp_path):
    url = pg.fresh_database()
    first = Host(tmp_path, "h1", url, lease="6")
    twin = Host(tmp_path / "twin", "h1", url, lease="6")
    again = Host(tmp_path / "again", "h1", url, lease="6")
    try:
        first.start()
        first.wait_started()
        twin.start()
        assert twin.proc is not None and twin.proc.stdout is not None
        out, _ = twin.proc.communicate(timeout=60)
        said = out.decode().strip().splitlines()  # (stdout and stderr: only that line)
        assert twin.proc.returncode != 0, out.decode()
        assert len(said) == 1 and said[0].startswith("colosseum serve: --host-id h1: a host of that id is running"), out
        assert "Traceback" not in out.decode() and not (tmp_path / "twin" / "h1" / "tables.sock").exists()
        assert first.up
        first.signal(signal.SIGTERM)
        assert first.proc is not None
        first.proc.wait(30)
        again.start()  # stopped cleanly: its id is free at once
        again.wait_started()
    finally:
        for h in (first, twin, again):
            try:
                h.stop()
            except (OSError, subprocess.SubprocessError):
                pass


def test_hosts_started_together_on_a_new_database_all_start(pg, tmp_path):
    """Every host of a new cluster started at the same moment (a service manager's way): they
    take turns bringing the new database's schema up to date, and all start (one used to stop
    with "duplicate key value violates unique constraint" when two created the tables at once).
    Each was a single host before, with its older names file: one imports, the others find the
    import done (the second used to stop on the import's mark)."""
    for round_ in range(2):
        url = pg.fresh_database()
        hosts = [Host(tmp_path / f"r{round_}", f"h{i + 1}", url, lease="6") for i in range(4)]
        for i, h in enumerate(hosts):
            h.data.mkdir(parents=True)
            (h.data / "names.jsonl").write_text(f'{{"name": "old{i}", "key": "key:SHA256:old{i}"}}\n')
        try:
            for h in hosts:
                h.start()
            for h in hosts:
                h.wait_started()
            assert all(h.up for h in hosts)
        finally:
            for h in hosts:
                try:
                    h.stop()
                except (OSError, subprocess.SubprocessError):
                    pass
