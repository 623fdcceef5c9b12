"""Fixtures of the rules tests; the position builders are in ``builders.py``."""

from __future__ import annotations

import pytest
from builders import start


@pytest.fixture
def game3():
    return start(3)
