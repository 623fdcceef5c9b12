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


def test_the_command_line_offers_municipiums_own_options_m13():
    """M-13: the parser spells Municipium's options itself (so `play` need not load that
    engine); they must be the engine's."""
    from colosseum.core.games.municipium import OPTIONS
    from colosseum.tui import cli

    assert tuple(cli.MUNI_OPTIONS) == tuple(OPTIONS)


def test_play_loads_neither_the_second_game_nor_the_saved_games_commands():
    """Start-up: building the parser and importing the command module leaves Municipium's
    engine, the exporter and the saved-games storage unloaded (they load when used)."""
    import subprocess
    import sys

    code = (
        "import sys; import colosseum.tui.cli as c; c.build_parser(); "
        "print(','.join(m for m in ('colosseum.core.games.municipium', 'colosseum.tui.export', 'colosseum.tui.storage') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
