"""Taking back in a local game: LocalSession.undo, the undo line in the log, resuming after it."""

from __future__ import annotations

import random

import pytest

from colosseum.core.games.colosseum import GameSetup, RuleError, encode_state, legal
from colosseum.core.logread import read_log
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording

SETUP = GameSetup(players=("Becky", "Kat", "Laura"), seed=5)


def human_move(s: LocalSession, r: random.Random) -> None:
    s.submit(r.choice(legal(s.state).actions))


def bots(s: LocalSession) -> None:
    while s.bot_to_act():
        s.step_bot()


def test_undo_restores_the_exact_state_and_bots_replay(tmp_path):
    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("random")))
    path = start_recording(s, tmp_path / "g.jsonl")
    r = random.Random(4)  # a human's moves with five take-backs or more among them
    undone = 0
    for _ in range(400):
        bots(s)
        if s.state.phase == "over":
            break
        before = encode_state(s.state)
        n = len(s.actions)
        choice = r.choice(legal(s.state).actions)
        s.submit(choice)
        bots(s)
        after = list(s.actions)
        reach = s.undo_reach()
        if reach.steps and r.random() < 0.4:
            assert reach.targets[0] == n
            line = s.undo()
            undone += 1
            assert encode_state(s.state) == before and len(s.actions) == n
            assert line.undo == n + 1 and line.through == len(after) and line.text.startswith("Becky took back: ")
            assert s.events[-1].kind == "undo" and s.events[-1].text == line.text
            s.submit(choice)
            bots(s)
            assert s.actions == after  # the bots play the same moves again
        elif not reach.steps:
            with pytest.raises(RuleError) as e:
                s.undo()
            assert reach.reason in str(e.value)
    assert undone >= 5
    log = read_log(path)
    assert log.error is None and len(log.undos) == undone
    assert log.actions == s.actions and encode_state(log.state) == encode_state(s.state)


def test_undo_several_steps_then_resume(tmp_path):
    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    path = start_recording(s, tmp_path / "g.jsonl")
    r = random.Random(8)
    # play until two of Becky's decisions in a row can be taken back
    while s.undo_reach().steps < 2:
        bots(s)
        human_move(s, r)
        bots(s)
    reach = s.undo_reach()
    s.undo()
    s.undo()
    assert len(s.actions) == reach.targets[1]
    log = read_log(path)
    assert log.actions == s.actions and len(log.undos) == 2
    s.recorder.close()
    # resume: the log is appended to after the undo lines and replays to the same game
    again = LocalSession(SETUP, s.seats, actions=log.actions)
    start_recording(again, path, append=True)
    for _ in range(30):
        bots(again)
        if again.state.phase == "over":
            break
        human_move(again, r)
    again.recorder.close()
    log = read_log(path)
    assert log.error is None and log.actions == again.actions
    assert encode_state(log.state) == encode_state(again.state)


def test_another_humans_action_is_a_boundary():
    s = LocalSession(SETUP, (Seat("human"), Seat("human"), Seat("greedy")))
    r = random.Random(1)
    for _ in range(200):
        bots(s)
        seat = s.waiting_for()
        human_move(s, r)
        reach = s.undo_reach()
        assert reach.seat == s.actions[-1].player  # the seat that acted last is in front of the keyboard
        other = 1 - seat
        assert all(a.player != other for a in s.actions[min(reach.targets, default=len(s.actions)) :])
        if reach.reason.endswith("acted since"):
            assert s.state.players[other].name in reach.reason
            break
    else:
        pytest.fail("the other human never acted")


def test_an_old_log_refuses_undo(tmp_path):
    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    path = start_recording(s, tmp_path / "g.jsonl")
    r = random.Random(2)
    while not s.undo_reach().steps:
        bots(s)
        human_move(s, r)
    s.recorder.close()
    data = path.read_bytes().replace(b'"version":2', b'"version":1', 1)
    old = tmp_path / "old.jsonl"
    old.write_bytes(data)
    again = LocalSession(SETUP, s.seats, actions=read_log(old).actions)
    start_recording(again, old, append=True)
    reach = again.undo_reach()
    assert reach.steps == 0 and "older format" in reach.reason
    with pytest.raises(RuleError):
        again.undo()
    again.recorder.close()


def test_a_game_without_humans_offers_no_undo():
    s = LocalSession(SETUP, (Seat("greedy"),) * 3)
    assert not s.offers_undo
    bots_only = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    assert bots_only.offers_undo and bots_only.undo_reach().short == "nothing yet"


def test_export_and_viewer_show_what_was_taken_back(tmp_path, capsys):
    import asyncio

    from colosseum.tui.cli import main as cli
    from colosseum.tui.review_app import ViewerApp
    from colosseum.tui.viewer import WITHDRAWN, HistoryPanel

    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    path = start_recording(s, tmp_path / "g.jsonl")
    r = random.Random(4)
    while not s.undo_reach().steps:
        bots(s)
        human_move(s, r)
        bots(s)
    line = s.undo()
    human_move(s, r)
    s.recorder.close()
    assert cli(["export", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Taken back: 1 time" in out and f"[{line.text}" in out and "withdrawn" in out
    assert cli(["export", str(path), "--format", "json"]) == 0
    import json

    doc = json.loads(capsys.readouterr().out)
    assert doc["undos"][0]["at"] == line.undo - 1 and doc["undos"][0]["line"]["text"] == line.text
    assert len(doc["positions"]) == len(s.actions) + 1

    log = read_log(path)
    app = ViewerApp(log)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            history = app.screen.query_one(HistoryPanel)
            notes = [t for seat, t in history.entries if seat == WITHDRAWN]
            assert notes and line.text in notes[0]
            assert len(history.entries) == len(log.actions) + 1 + len(notes)
            await pilot.press("w")
            await pilot.pause()
            assert all(seat != WITHDRAWN for seat, _ in history.entries)
            assert len(history.entries) == len(log.actions) + 1
            assert "w: show taken back" in str(app.screen.bar_text())

    asyncio.run(go())


def test_a_quiet_decision_taken_back_after_another_is_named_by_itself():
    from colosseum.core.games.colosseum.actions import ChooseDice

    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    r = random.Random(6)
    for _ in range(2000):
        bots(s)
        assert s.state.phase != "over"
        choices = legal(s.state).actions
        dice = [a for a in choices if isinstance(a, ChooseDice)]
        s.submit(dice[0] if dice else r.choice(choices))
        if dice:
            break
    assert isinstance(s.actions[-1], ChooseDice) and s.waiting_for() == 0
    human_move(s, r)  # a noble move, taken back first: its note stays at the dice decision
    assert s.undo().text.startswith("Becky took back: moves")
    line = s.undo()
    assert line.text == f"Becky took back: chose to {'add' if dice[0].mode == 'sum' else 'split'} the dice"


def test_no_undo_once_the_game_is_over():
    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("greedy")))
    r = random.Random(9)
    while s.state.phase != "over":
        bots(s)
        if s.state.phase != "over":
            human_move(s, r)
    reach = s.undo_reach()
    assert reach.steps == 0 and reach.reason == "the game is over"


def test_undo_lines_wait_in_order_with_the_moves_while_the_disk_is_full(tmp_path, monkeypatch):
    import errno
    import os

    from colosseum.tui.storage import Recorder, finish_recording

    full = [False]
    real = os.write

    def write(fd: int, data) -> int:
        if full[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    s = LocalSession(SETUP, (Seat("human"), Seat("greedy"), Seat("random")))
    path = start_recording(s, tmp_path / "g.jsonl")
    rec = s.recorder
    assert isinstance(rec, Recorder)
    r = random.Random(5)
    undone = while_full = 0
    for _ in range(60):
        bots(s)
        if s.state.phase == "over":
            break
        full[0] = len(s.actions) > 20  # from here on nothing reaches the disk
        human_move(s, r)
        bots(s)
        if s.undo_reach().steps and r.random() < 0.5:
            s.undo()
            undone += 1
            while_full += full[0]
    assert while_full >= 2 and rec.error is not None and rec.unsaved > 0
    full[0] = False
    assert rec.flush() and rec.unsaved == 0
    log = read_log(path)
    assert log.error is None and len(log.undos) == undone
    assert log.actions == s.actions and encode_state(log.state) == encode_state(s.state)
    assert finish_recording(s) is None


def test_a_take_back_takes_the_bots_deal_after_it_with_it():
    """Issue 23's case, as D-70 decides it: one `u` takes back the person's last decision and
    the bots' replies after it, a deal two bots closed among them; the note says so; deciding
    the same again, the bots close the same deal (nothing they did is lost), and chance stays a
    boundary."""
    from colosseum.core.games.colosseum.actions import CloseDeal

    found = False
    for seed in range(1, 40):
        setup = GameSetup(players=("Becky", "Kat", "Laura", "Mia"), seed=seed)
        s = LocalSession(setup, (Seat("human"), Seat("greedy"), Seat("greedy"), Seat("greedy")))
        r = random.Random(seed)
        while s.state.phase != "over" and s.state.round <= 2:
            bots(s)
            n = len(s.actions)
            before = encode_state(s.state)
            choice = r.choice(legal(s.state).actions)
            s.submit(choice)
            bots(s)
            replies = s.actions[n + 1 :]
            closed = [a for a in replies if isinstance(a, CloseDeal) and a.player != 0]
            reach = s.undo_reach()
            if not closed or not reach.steps or reach.targets[0] != n:
                continue
            after = list(s.actions)
            line = s.undo()
            assert encode_state(s.state) == before and len(s.actions) == n
            moves = len(replies)
            assert line.text.endswith(f", and the {moves} bot move{'s' if moves > 1 else ''} after it")
            s.submit(choice)
            bots(s)
            assert s.actions == after
            found = True
            break
        if found:
            break
    assert found
