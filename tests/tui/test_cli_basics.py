"""The command line: ``--version`` and ``simulate`` with its own defaults."""

from __future__ import annotations

import json

import pytest

from colosseum import __version__
from colosseum.tui.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
def test_simulate_defaults_fit_every_player_count(capsys, players, variant):
    assert main(["simulate", "--players", str(players), "--games", "1", "--variant", variant, "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert len(first["seats"]) == players
    assert "shared" in first
