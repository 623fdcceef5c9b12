"""`colosseum play` of Colosseum starts without loading Municipium's engine (start-up time)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import colosseum.tui.cli, colosseum.tui.app, colosseum.tui.session, colosseum.tui.storage
loaded = sorted(m for m in sys.modules if m.startswith("colosseum.core.games.municipium"))
print(loaded)
"""


def test_play_import_path_does_not_load_municipium() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_municipium_still_loads_on_demand() -> None:
    from colosseum.core.registry import game_names, rules, spec

    assert game_names(discover=False) == ("colosseum", "municipium")
    assert rules("municipium") is spec("municipium").rules()
    assert rules("municipium").spec.name == "municipium"
