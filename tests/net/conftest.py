"""Server and protocol tests: tables, the SSH server and the remote session, on loopback only."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from colosseum.tui.net.host.hub import TableServer
from colosseum.tui.net.host.testing import running_server


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
