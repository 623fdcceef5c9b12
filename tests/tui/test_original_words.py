"""Issue 23: the original 2007 edition speaks its own words in the dialogs that said "No temple:
dice count in full", "Acclaim marker at 0; 0 Aquilas", "build a gate", "Acclaim (G-5.3)": its
spectators, medals, arena pieces, the Emperor's loge and its rule ids (O-23)."""

from __future__ import annotations

import asyncio
import re

from app_positions import human_session, play_until
from dialog_harness import settle

from colosseum.tui.app import ColosseumApp


def _dialog_text(until, seed=5):
    game = dict(variant="original")
    session = human_session(play_until(until, seed=seed, **game), seed=seed, **game)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)
    out = []

    async def go():
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            for _ in range(40):
                await pilot.pause(0.05)
                if type(app.screen).__name__ != "GameScreen":
                    break
            await settle(pilot)
            out.append(" ".join(str(w.render()) for w in app.screen.query("Static")))

    asyncio.run(go())
    return out[0]


def test_the_perform_dialog_counts_spectators_and_medals():
    text = _dialog_text(lambda st: st.phase == "perform" and st.perform is not None and st.perform.stage == "after")
    assert "Spectators: 0; 0 medals." in text and "Spectators (O-23)" in text, text
    assert "choose a program to perform" in text
    assert "Acclaim" not in text and "Aquila" not in text, text


def test_the_dice_dialog_names_the_emperors_loge():
    text = _dialog_text(lambda st: st.phase == "perform" and st.perform is not None and st.perform.stage == "roll")
    assert "No Emperor's loge: dice count in full." in text and "temple" not in text.lower(), text


def test_the_end_screen_counts_spectators_in_the_original():
    from colosseum.core.games.colosseum import GameSetup
    from colosseum.tui.games.colosseum.end import result_text
    from colosseum.tui.session import LocalSession, Seat

    s = LocalSession(GameSetup(players=("Kat", "Becky", "Laura"), seed=8, variant="original"), (Seat("random"),) * 3)
    while s.step_bot():
        pass
    text = result_text(s.state, "colosseum-dark").plain
    assert "Spectators" in text and "Acclaim" not in text, text
    assert "wins with" in text or "share the win" in text


def test_the_record_ranks_by_spectators_in_the_original(tmp_path):
    from colosseum.core.games.colosseum import GameSetup
    from colosseum.core.logread import read_log
    from colosseum.tui.export import export_text
    from colosseum.tui.session import LocalSession, Seat
    from colosseum.tui.storage import finish_recording, start_recording

    s = LocalSession(GameSetup(players=("Kat", "Becky", "Laura"), seed=8, variant="original"), (Seat("random"),) * 3)
    path = start_recording(s, tmp_path / "g.jsonl")
    while s.step_bot():
        pass
    finish_recording(s)
    ranking = export_text(read_log(path)).split("== Final ranking ==", 1)[1].split("\n\n", 1)[0]
    assert "Spectators" in ranking and "Acclaim" not in ranking, ranking
    assert re.search(r"\d star cards?\b", ranking) and "Star Performer" not in ranking, ranking
