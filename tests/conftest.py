"""Shared by every layer's tests: games saved and settings written during tests never reach the
user's folders."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Games saved during tests go to a temporary folder, never the user's data folder."""
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path_factory.mktemp("colosseum-data")))


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Settings written during tests go to a temporary folder, and the user's own settings
    (a theme, a key map) never change what a test sees."""
    monkeypatch.setenv("COLOSSEUM_CONFIG_DIR", str(tmp_path_factory.mktemp("colosseum-config")))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first, the longest first (``@pytest.mark.long(seconds)``: about how long
    it runs on CI's machine): the workers steal the short ones around them (``--dist
    worksteal``), instead of one worker running the long ones alone at the end."""

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return float(mark.args[0]) if mark is not None and mark.args else 0.0

    items.sort(key=lambda item: -seconds(item))
