"""Snapshots of every decision dialog at 80x24 and 120x40 (pytest-textual-snapshot), over
the real game screen.

Positions come from seeded games played by random bots, recorded as game logs in
``data/positions/<case>.jsonl`` (``record()`` rewrites them) so that they replay the same
whatever the bots do later; seat 0 is the human to act and opens its dialog with ``a``.  Update
with ``pytest --snapshot-update`` and look at every changed SVG before accepting it.
"""

from __future__ import annotations

import pytest
from dialog_harness import dialog_app, load_position, make_session, open_first, record_positions, settle

from colosseum.core.games.colosseum.offers import performable

CASES = {
    "setup": (lambda s: s.phase == "setup", dict(first_player=1), ()),
    "invest": (lambda s: s.phase == "invest", {}, ()),
    "invest_plan": (lambda s: s.phase == "invest", {}, ("s", "down")),
    "invest_gate": (lambda s: s.phase == "invest", {}, ("b",)),
    "auction_open": (lambda s: s.phase == "hire" and s.hire.auction is None and s.players[0].coins >= 12, {}, ()),
    "auction_bid": (
        lambda s: s.phase == "hire" and s.hire.auction is not None and s.hire.active != 0,
        {},
        ("plus",),
    ),
    "trade_compose": (
        lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active == 0,
        {},
        ("plus", "right", "down", "plus", "down"),
    ),
    "trade_answered": (
        lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active == 0,
        {},
        ("plus", "enter"),
    ),
    "trade_answer": (lambda s: s.phase == "trade" and s.trade.deal is not None and s.trade.active != 0, {}, ()),
    "nobles_roll": (lambda s: s.phase == "perform" and s.perform.stage == "roll", {}, ()),
    "nobles_mode": (
        lambda s: s.phase == "perform" and s.perform.stage == "roll" and s.players[0].temple,
        {},
        ("enter",),
    ),
    "nobles_move": (
        lambda s: s.phase == "perform" and s.perform.stage == "roll" and s.players[0].temple,
        {},
        ("enter", "enter", "minus", "down"),
    ),
    "perform": (
        lambda s: (
            s.phase == "perform" and s.perform.stage == "after" and s.players[0].aquilas > 0 and performable(s, 0)
        ),
        {},
        ("plus",),
    ),
    "aquila_move": (
        lambda s: s.phase == "perform" and s.perform.stage == "after" and s.players[0].aquilas > 0,
        {},
        ("m", "down"),
    ),
    "retire": (lambda s: s.phase == "closing" and s.closing.stage == "retire", {}, ()),
    "steal": (lambda s: s.phase == "closing" and s.closing.stage == "steal", {}, ()),
    "first_player": (lambda s: s.phase == "closing" and s.closing.stage == "first", {}, ()),
}

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("case", list(CASES))
def test_dialog_snapshot(snap_compare, case, size):
    pred, kw, keys = CASES[case]
    setup, actions = load_position(case, pred, **kw)
    app = dialog_app(make_session(setup, actions))

    async def open_and_press(pilot) -> None:
        # the keys here rather than in ``press``: the board's preview arrives by a message
        # after the key and is drawn by the screen below, so let it settle before the shot
        await open_first(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, 3)
        await settle(pilot)
        # the game screen under the dialogs repaints its board on its own refresh timer
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=open_and_press)


def record() -> None:
    """Re-record the positions of every case (after a rules change); then update and look at
    the snapshots."""
    record_positions({name: (pred, kw) for name, (pred, kw, _keys) in CASES.items()})
