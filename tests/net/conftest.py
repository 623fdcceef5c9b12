"""Server and protocol tests: tables, the SSH server and the remote session, on loopback only."""

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from colosseum.tui.net.host.hub import TableServer


@contextlib.contextmanager
def running_server(data: Path, **kw) -> Iterator[TableServer]:
    """A table server on its own event loop in a thread (``kw``: TableServer's options)."""
    loop = asyncio.new_event_loop()
    srv = TableServer(data, **kw)
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(srv.start())
        ready.set()
        loop.run_forever()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    try:
        yield srv
    finally:
        asyncio.run_coroutine_threadsafe(srv.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        t.join(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TableServer]:
    """A table server whose bots move at once (tables may be made with a seed: games the tests
    know in advance)."""
    with running_server(tmp_path / "data", bot_delay=0.0, bot_timeout=60, fixed_seeds=True) as srv:
        yield srv


@pytest.fixture
def paced_server(tmp_path: Path) -> Iterator[TableServer]:
    """A table server whose bots wait 0.05 s before each move (a client sees them move)."""
    with running_server(tmp_path / "paced", bot_delay=0.05, bot_timeout=60, fixed_seeds=True) as srv:
        yield srv


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[TableServer]:
    """A table server whose bots wait 3 s before each move (the grace to take back in)."""
    with running_server(tmp_path / "slow", bot_delay=3.0, bot_timeout=60, fixed_seeds=True) as srv:
        yield srv
