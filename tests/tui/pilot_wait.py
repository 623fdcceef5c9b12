"""``wait_for``: let a headless app run until a condition holds (the tests of tests/tui and of
its municipium folder; tests/tui/conftest.py puts this folder on the path)."""

from __future__ import annotations


async def wait_for(pilot, cond, what: str, steps: int = 300) -> None:
    """Let the app run until ``cond()`` holds (about 6 s at most), else fail naming ``what``."""
    for _ in range(steps):
        if cond():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")
