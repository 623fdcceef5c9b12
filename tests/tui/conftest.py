"""Client tests: pilot, snapshot and screen tests on the real Textual app.

The temporary data and config folders come from tests/conftest.py, for every layer."""
