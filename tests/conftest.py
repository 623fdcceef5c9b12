"""Shared by every layer's tests: games saved during tests never reach the user's data folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Games saved during tests go to a temporary folder, never the user's data folder."""
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path_factory.mktemp("colosseum-data")))
