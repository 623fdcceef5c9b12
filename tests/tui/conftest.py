"""Client tests: pilot, snapshot and screen tests on the real Textual app."""
