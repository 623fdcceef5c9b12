"""The sessions' client processes are forked from one process that imported the client once
(issue 24: 33 MiB of memory per session, the target 30): each gets its own terminal and only its
own environment, its end is noticed as before (a killed client: the terminal reset and one
line), and when the fork server is gone the clients start afresh."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import asyncssh
import pytest

from colosseum.tui.net.host.forks import Forked
from colosseum.tui.net.host.ssh import CRASH_MESSAGE, start_server
from colosseum.tui.net.host.testing import free_port, plain

LOBBY = "Lobby - you are"


@pytest.fixture(scope="module")
def key():
    return asyncssh.generate_private_key("ssh-ed25519")


def ppid(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().partition("=")[::2] for item in raw if item)


async def read_until(proc, words: str | bytes, timeout: float = 40.0) -> bytes:
    buf = b""
    end = asyncio.get_running_loop().time() + timeout
    while (words not in plain(buf)) if isinstance(words, str) else (words not in buf):
        left = end - asyncio.get_running_loop().time()
        assert left > 0, f"never shown: {words!r}; last: {plain(buf)[-400:]!r}"
        try:
            data = await asyncio.wait_for(proc.stdout.read(65536), min(left, 1.0))
        except TimeoutError:
            continue
        assert data, f"session ended; last: {plain(buf)[-400:]!r}"
        buf += data
    return buf


def test_clients_are_forked_with_their_own_terminal_and_environment_and_start_afresh_without(
    tmp_path, key, monkeypatch
):
    monkeypatch.setenv("COLOSSEUM_TEST_SERVER_ONLY", "not for the players")

    async def go():
        port = free_port()
        srv = await start_server(listen=f"127.0.0.1:{port}", data=tmp_path / "data", open_to_all=True, bot_delay=0.02)
        hub = srv.hub
        try:
            assert hub.forks is not None and hub.forks.alive
            forks = hub.forks.proc.pid
            async with asyncssh.connect(
                "127.0.0.1", port, username="小明", client_keys=[key], known_hosts=None, agent_path=None
            ) as conn:
                a = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
                await read_until(a, LOBBY)
                ((client,),) = [list(hub.clients)]
                assert isinstance(client, Forked) and ppid(client.pid) == forks
                # (what it was started with: the fork server's; a session's own is set after the fork,
                # e.g. its COLORTERM: test_net_ssh's true-colour session)
                env = environ(client.pid)
                assert "COLOSSEUM_TEST_SERVER_ONLY" not in env and "COLOSSEUM_NET_TOKEN" not in env
                assert "COLOSSEUM_CONFIG_DIR" not in env and "HOME" not in env  # nobody's folders
                assert os.getpgid(client.pid) == client.pid  # a session of its own: killpg reaches it
                # killed: the session is told, the client's end is noticed
                os.kill(client.pid, signal.SIGKILL)
                out = await read_until(a, CRASH_MESSAGE)
                assert b"\x1b[?1049l" in out  # the terminal reset first
                for _ in range(100):
                    if not hub.clients:
                        break
                    await asyncio.sleep(0.05)
                assert not hub.clients and client.returncode == -signal.SIGKILL
                # the fork server is gone: the next session's client starts afresh and works
                hub.forks.proc.kill()
                for _ in range(100):
                    if not hub.forks.alive:
                        break
                    await asyncio.sleep(0.05)
                assert not hub.forks.alive
                b = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
                await read_until(b, LOBBY)
                ((fresh,),) = [list(hub.clients)]
                assert not isinstance(fresh, Forked) and ppid(fresh.pid) == os.getpid()
                b.close()
        finally:
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 120))


def test_the_memory_budget_counts_what_clients_really_use_measured_off_the_event_loop():
    from types import SimpleNamespace

    from colosseum.tui.net.host import memory
    from colosseum.tui.net.host.options import SESSION_MB

    async def go():
        meter = memory.MemoryMeter()
        me = SimpleNamespace(pid=os.getpid())
        assert meter.used([me]) == SESSION_MB  # not measured yet: the most a client may reach
        for _ in range(100):
            await asyncio.sleep(0.02)
            if me.pid in meter.sizes:
                break
        mine = meter.used([me])
        assert mine > 0 and mine != SESSION_MB  # this process's proportional size, measured
        newcomer = SimpleNamespace(pid=-1)
        assert meter.used([me, newcomer]) == mine + SESSION_MB  # (measured again only EVERY s)
        assert meter.used([]) == 0  # ended clients count no more

    asyncio.run(asyncio.wait_for(go(), 30))
