"""Issue 23: the original 2007 edition speaks its own words in the dialogs that said "No temple:
dice count in full", "Acclaim marker at 0; 0 Aquilas", "build a gate", "Acclaim (G-5.3)": its
spectators, medals, arena pieces, the Emperor's loge and its rule ids (O-23)."""

from __future__ import annotations

import asyncio
import re

from app_positions import human_session, play_until
from dialog_harness import settle

from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.common import prompt


def _dialog_text(until, seed=5):
    return _dialog(until, seed)["text"]


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


def _dialog(until, seed=5, variant="original"):
    """The dialog open at the first position where ``until``: its text, its title and its keys'
    labels, and the tradable items where it is the trade dialog."""
    game = dict(variant=variant)
    session = human_session(play_until(until, seed=seed, **game), seed=seed, **game)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)
    out = {}

    async def go():
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            for _ in range(40):
                await pilot.pause(0.05)
                if type(app.screen).__name__ != "GameScreen":
                    break
            await settle(pilot)
            screen = app.screen
            out["text"] = " ".join(str(w.render()) for w in screen.query("Static"))
            out["title"] = str(screen.query_one("#dialog").border_title)
            out["keys"] = {b.description for _, b, *_ in app.active_bindings.values()}
            out["labels"] = {b.description for found in screen._bindings.key_to_bindings.values() for b in found}
            out["items"] = screen.items() if hasattr(screen, "items") else None
            out["header"] = prompt(session.state)[1]  # the header's instruction

    asyncio.run(go())
    return out


def _closing(stage):
    return lambda st: st.phase == "closing" and st.closing is not None and st.closing.stage == stage


def test_the_original_retires_and_takes_asset_tiles_from_the_podiums_winner():
    """O-25/O-26 in the original's words: no performers, spectacles or stealing from the most
    acclaimed; the least takes a normal tile from the podium's winner."""
    got = _dialog(_closing("retire"))
    assert got["title"] == "Retire an asset tile", got["title"]
    assert "retire an asset tile used in your program" in got["text"], got["text"]
    assert "the program goes face up" in got["text"] and "spectacle" not in got["text"], got["text"]
    got = _dialog(_closing("steal"))
    assert got["title"] == "Take an asset tile", got["title"]
    assert "take an asset tile from" in got["text"] and "lowest" in got["text"], got["text"]
    assert "acclaimed" not in got["text"] and "steal" not in got["text"].lower(), got["text"]
    assert {"take", "take nothing"} <= got["keys"] and "steal" not in got["keys"], got["keys"]
    assert ": take an asset tile from " in got["header"], got["header"]


def test_the_grand_spectacle_keeps_its_words_in_the_closing_dialogs():
    got = _dialog(_closing("steal"), variant="grand")
    assert got["title"] == "Steal a performer" and "most acclaimed" in got["text"], got
    assert ": steal a performer from " in got["header"], got["header"]
    assert {"steal", "steal nothing"} <= got["keys"], got["keys"]
    got = _dialog(_closing("retire"), variant="grand")
    assert got["title"] == "Retire a performer" and "the spectacle goes face up" in got["text"], got


def test_the_perform_dialogs_keys_spend_medals_in_the_original():
    got = _dialog(lambda st: st.phase == "perform" and st.perform is not None and st.perform.stage == "after")
    # (shown while the player holds medals)
    assert {"medals", "fewer medals"} <= got["labels"], got["labels"]
    assert not any("Aquila" in k for k in got["labels"]), got["labels"]


def test_the_original_trades_no_medals():
    """O-19: medals are not traded: the deal editor has no row for them (the engine refuses them)."""
    trading = lambda st: st.phase == "trade" and st.trade is not None and st.trade.deal is None  # noqa: E731
    assert "aquilas" not in _dialog(trading)["items"]
    assert "aquilas" in _dialog(trading, variant="grand")["items"]


def test_the_players_note_of_changes_counts_spectators_and_medals():
    """The players panel's note of what the last move changed says the edition's short words,
    as its columns do ("Spe", "Me"; "Acc", "Aq" in The Grand Spectacle)."""
    from colosseum.core.games.colosseum.components import load_catalog
    from colosseum.tui.games.colosseum.players import PlayersPanel, short_words

    note = PlayersPanel._delta_note
    assert note((9, -11, 1, 0), True, 80, (0, 0), short_words(load_catalog("original"))) == "(+9 Spe $-11 Me+1)"
    assert note((9, -11, 1, 0), True, 80, (0, 0), short_words(load_catalog("grand"))) == "(+9 Acc $-11 Aq+1)"
