"""``MuniDialog`` under its old name (``tests/net/test_muni_remote.py``): the shell's decision
dialog frame.  Goes with ``tui/net/muni_remote.py``."""

from colosseum.tui.dialogs.frame import DecisionScreen as MuniDialog

__all__ = ["MuniDialog"]
