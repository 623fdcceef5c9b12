"""Several hosts whose peer ports speak TLS (``serve --peer-tls``, issue 30's "TLS optional"):
each host publishes ``tls:HOST:PORT#sha256=...``; players on other hosts reach its tables over
TLS, pinned to that certificate, through a failover as without TLS; the port answers nothing to
a plain connection, and a client expecting another certificate does not send its token."""

from __future__ import annotations

import re
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from clusterdrill import Drill, shared_secret
from pgcluster import cluster_or_skip

from colosseum.tui.net.host.proto_client import NetError
from colosseum.tui.net.host.tokens import make_token
from colosseum.tui.net.hosts import HostsClient


def serve(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``colosseum serve`` on ``data`` with ``args``, expected to refuse at once."""
    return subprocess.run(
        [sys.executable, "-m", "colosseum", "serve", "--data", str(data), "--open", "--listen", "127.0.0.1:0", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


def test_tables_are_reached_over_tls_and_survive_a_host_killed(pg, tmp_path):
    drill = Drill(tmp_path, pg.fresh_database(), seed=11, tls=True)
    try:
        drill.start(3)
        for h in drill.hosts:
            assert re.fullmatch(r"tls:127\.0\.0\.1:\d+#sha256=[0-9a-f]{64}", h.peer), h.peer
            assert (h.data / "peer_tls.key").stat().st_mode & 0o077 == 0
        token = make_token(shared_secret(drill.url), "key:px", "px")
        h1 = drill.hosts[0]
        host, port = h1.peer.removeprefix("tls:").split("#")[0].rsplit(":", 1)
        # a plain connection to a TLS port gets no welcome
        with pytest.raises((NetError, OSError)):
            HostsClient(f"tcp:{host}:{port}", token).close()
        # a certificate other than the one published: refused before the token is sent
        other = drill.hosts[1].peer.rsplit("=", 1)[1]
        with pytest.raises(ssl.SSLError, match="not the one it published"):
            HostsClient(f"tls:{host}:{port}#sha256={other}", token).close()
        drill.seat_players([("colosseum", [0, 0, 1]), ("municipium", [1, 2, 1])])
        result = drill.play(kill=(0, 20))
        assert not result["errors"], result["errors"]
        figures = drill.check()
        assert all(p.done for p in drill.players)
        assert len(figures["gens"][drill.tables[0]]) >= 2  # taken over by another host, over TLS too
    finally:
        drill.close()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--peer-tls"], "are for one of several hosts: give --host-id too"),
        (["--peer-listen", "127.0.0.1:0"], "are for one of several hosts: give --host-id too"),
        (["--host-id", "h1"], "several hosts share a PostgreSQL database"),
    ],
)
def test_the_options_of_several_hosts_alone_are_refused_in_one_line(tmp_path, args, said):
    run = serve(tmp_path, *args)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [run.stderr.strip()] and said in run.stderr
    assert not (tmp_path / "peer_tls.key").exists()


def test_a_certificate_and_key_that_do_not_match_are_said_in_one_line(pg, tmp_path):
    """The operator's own pair put in the data folder, but not a pair: one line, status 1,
    nothing listening (the process ends)."""
    from colosseum.tui.net.host import peertls

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    cert, _ = peertls.ensure_cert(tmp_path / "a", "h1")
    _, key = peertls.ensure_cert(tmp_path / "b", "h1")
    data = tmp_path / "data"
    data.mkdir()
    (data / peertls.CERT_FILE).write_bytes(cert.read_bytes())
    (data / peertls.KEY_FILE).write_bytes(key.read_bytes())
    run = serve(data, "--database", pg.fresh_database(), "--host-id", "h1", "--peer-tls")
    assert run.returncode == 1, run.stderr
    said = [line for line in run.stderr.splitlines() if line.startswith("colosseum serve:")]
    assert len(said) == 1 and "--peer-tls:" in said[0] and "remove both to have new ones made" in said[0], run.stderr
