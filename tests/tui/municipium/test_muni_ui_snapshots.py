"""Snapshots of the Municipium main screen and of each kind of dialog at 80x24
(pytest-textual-snapshot).

Positions are recorded action lists (``data/muni_ui_positions.json``; ``record()`` rewrites
it); every seat is human, so no bot moves while the screen is captured, and seat 0 decides.
Update with ``pytest --snapshot-update`` and look at every changed SVG before accepting it.
"""

from __future__ import annotations

import pytest
from muni_ui_helpers import position_session, record_positions

from colosseum.core.games.municipium.model import (
    BasilicaFrame,
    ChamberFrame,
    CitizenEventFrame,
    EmporiumFrame,
    ForumFrame,
    GreatFamilyFrame,
    OfferFrame,
    PlaceFrame,
    RearrangeFrame,
    TavernFrame,
)
from colosseum.tui.app import ColosseumApp


def top_is(frame_type, extra=lambda st: True):
    return lambda st: bool(st.stack) and isinstance(st.stack[-1], frame_type) and extra(st)


def three_held(st) -> bool:
    p = st.players[0]
    return sum(p.citizens) + p.favours >= 3


# name: (predicate, find_position keywords); the keys pressed per snapshot are in SNAPS
CASES = {
    "main": (lambda st: st.phase == "move" and not st.stack and st.turn >= 9, {}),
    "place_member": (lambda st: st.phase == "place" and st.placed >= 7, {}),
    "move": (lambda st: st.phase == "move" and not st.stack and st.turn >= 5, {}),
    "card": (lambda st: st.phase == "card" and not st.stack and st.turn >= 5, {}),
    "place_citizen": (top_is(PlaceFrame, lambda st: sum(st.held) > 1), {}),
    "keep": (top_is(CitizenEventFrame), {}),
    "great_family": (top_is(GreatFamilyFrame), {}),
    "offer": (top_is(OfferFrame, lambda st: len(st.stack[-1].options) > 1), {}),
    "tavern": (top_is(TavernFrame), {}),
    "emporium": (top_is(EmporiumFrame), {}),
    "basilica": (top_is(BasilicaFrame, three_held), {}),
    "forum": (top_is(ForumFrame), {}),
    "rearrange": (top_is(RearrangeFrame), {}),
    "chamber": (top_is(ChamberFrame), {"options": ("single-chamber",), "n": 4}),
    "over": (lambda st: st.phase == "over", {"actor": None}),
}

# snapshot name: (position, keys, open the dialog)
SNAPS = {
    "main": ("main", (), False),
    "place_member": ("place_member", ("down",), True),
    "move": ("move", ("down",), True),
    "move_where": ("move", ("down", "enter"), True),
    "card": ("card", ("down", "down"), True),
    "place_citizen": ("place_citizen", (), True),
    "keep": ("keep", (), True),
    "great_family": ("great_family", (), True),
    "offer": ("offer", (), True),
    "tavern": ("tavern", (), True),
    "tavern_count": ("tavern", ("enter",), True),
    "emporium": ("emporium", (), True),
    "basilica": ("basilica", ("down",), True),
    "forum": ("forum", (), True),
    "rearrange": ("rearrange", ("down",), True),
    "rearrange_where": ("rearrange", ("down", "enter"), True),
    "chamber": ("chamber", (), True),
    "over": ("over", (), True),
    "help": ("main", ("f1",), False),
    "rules": ("main", ("r",), False),
}


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("snap", list(SNAPS))
def test_snapshot_80x24(snap_compare, snap):
    case, keys, auto = SNAPS[snap]
    app = ColosseumApp(position_session(case), bot_delay=0, theme="colosseum-dark", auto_dialogs=auto)
    assert snap_compare(app, press=keys, terminal_size=(80, 24), run_before=settle)


def record() -> None:
    """Re-record the positions (after a rules change); then update and look at the snapshots."""
    record_positions(CASES)


if __name__ == "__main__":
    record()
