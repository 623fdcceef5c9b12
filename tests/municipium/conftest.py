"""Fixtures of the Municipium rules tests; position builders are in ``muni_builders.py``."""

from __future__ import annotations

import pytest
from muni_builders import board


@pytest.fixture
def b3():
    """3 players A, B, C after initial placement; A to move; nobody on the board."""
    return board(3)
