"""Client tests: pilot, snapshot and screen tests on the real Textual app."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Settings written during tests go to a temporary folder, and the user's own settings
    (a theme, a key map) never change what a test sees."""
    monkeypatch.setenv("COLOSSEUM_CONFIG_DIR", str(tmp_path_factory.mktemp("colosseum-config")))
