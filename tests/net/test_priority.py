"""A spectator's client process lowers its own priority once (D-92): to its level in the
autogroup where Linux schedules by autogroup, and as its nice value; a second call changes
nothing.  Run in a child process: a process cannot take the priority back."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from colosseum.tui.net import priority

CHILD = r"""
import json, os
from colosseum.tui.net import priority
first = priority.yield_to_players()
second = priority.yield_to_players()
group = None
try:
    with open("/proc/self/autogroup") as fh:
        group = int(fh.read().split()[-1])
except (OSError, ValueError):
    pass
print(json.dumps({"first": first, "second": second, "nice": os.getpriority(os.PRIO_PROCESS, 0),
                  "group": group, "level": priority.spectator_level(), "autogroup": priority._autogroup()}))
"""


def test_levels_spread_the_spectators_below_the_players() -> None:
    assert all(0 < lv <= 19 for lv in priority.LEVELS)
    assert len(set(priority.LEVELS)) == len(priority.LEVELS)
    seen = {priority.spectator_level(pid) for pid in range(1000, 1000 + 3 * len(priority.LEVELS))}
    assert seen == set(priority.LEVELS)


def test_a_spectator_process_lowers_its_priority_once() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, start_new_session=True, check=True
    )
    got = json.loads(out.stdout)
    level = got["level"]
    assert got["first"] == level and got["second"] is None
    assert got["nice"] >= level
    if got["autogroup"]:  # its own session, so its own group: the level is the group's
        assert got["group"] == level
    assert os.getpriority(os.PRIO_PROCESS, 0) < 19  # (this process is untouched)
