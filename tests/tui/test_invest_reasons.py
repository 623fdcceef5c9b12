"""Unaffordable investments are shown, dimmed, with the reason the rules give (issue 23), in every
edition and in the edition's words: never hidden."""

from __future__ import annotations

import asyncio

import pytest
from app_positions import play_until
from dialog_harness import dialog_app, make_session, open_first

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.games.colosseum.dialogs.invest import InvestDialog

CASES = [
    ("grand", 3, lambda st: st.round == 2 and bool(st.invest.made)),
    ("grand", 5, lambda st: st.round == 3 and st.players[st.invest.player].coins < 10),
    ("classic", 3, lambda st: st.round == 2),
    ("classic", 5, lambda st: st.round == 3 and st.players[st.invest.player].coins < 10),
    ("original", 3, lambda st: st.round == 2),
    ("original", 5, lambda st: st.round == 3 and st.players[st.invest.player].coins < 10),
]


@pytest.mark.parametrize(("variant", "seed", "until"), CASES)
def test_every_investment_is_shown_and_a_refused_one_says_why(variant, seed, until):
    def pred(st):
        return st.phase == "invest" and st.invest is not None and until(st)

    setup = GameSetup(players=("Becky", "Kat", "Laura"), seed=seed, variant=variant)
    session = make_session(setup, play_until(pred, n=3, seed=seed, variant=variant), humans=(0, 1, 2))
    app = dialog_app(session)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, InvestDialog)
            options = list(dlg.query_one("#choices").options)
            ids = [str(o.id).split(":")[0] for o in options]
            for kind in ("gate", "promoter", "plan", "temple", "end"):
                assert kind in ids, (kind, ids)
            refused = [str(o.prompt) for o in options if o.disabled]
            assert refused, "a position with something unaffordable"
            for text in refused:
                assert text.endswith(")") and "(" in text, text
            if variant == "original":
                words = " ".join(str(o.prompt) for o in options)
                for word in ("gate", "Aquila", "promoter", "Temple of Fortuna", "spectacle"):
                    assert word not in words, (word, words)

    asyncio.run(go())
