"""Forks: ``colosseum fork`` and tui/fork.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from colosseum.core.games.colosseum import GameSetup, RuleError, apply, encode_state
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.logread import read_log
from colosseum.core.undo import chance_in
from colosseum.tui.cli import main as cli
from colosseum.tui.fork import ForkError, fork_session, seat_kinds, start_fork
from colosseum.tui.saved import prepare_resume
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording


@pytest.fixture
def finished(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    s = LocalSession(
        GameSetup(players=("Becky", "Kat", "Laura"), seed=9), (Seat("greedy"), Seat("greedy"), Seat("random"))
    )
    path = start_recording(s, tmp_path / "parent.jsonl")
    while s.bot_to_act():
        s.step_bot()
    assert s.state.phase == "over"
    return path


def test_fork_no_play_writes_a_self_contained_log(finished, tmp_path, capsys):
    parent = read_log(finished)
    n = 40
    assert cli(["fork", str(finished), "--at", str(n), "--humans", "Becky", "--no-play"]) == 0
    path = Path(capsys.readouterr().out.strip())
    log = read_log(path)
    assert log.error is None and log.header.fork_of == finished.name and log.header.fork_at == n
    assert log.seats == ("human", "greedy", "random") and log.setup == parent.setup
    assert log.actions == parent.actions[:n]
    for i in range(n + 1):
        assert encode_state(log.timeline.state(i)) == encode_state(parent.timeline.state(i))
    assert finished.read_bytes() == finished.read_bytes()  # the parent is left as it was
    assert cli(["games"]) == 0
    assert f"fork of {finished.name} at action {n}" in capsys.readouterr().out


def test_fork_at_a_round(finished, capsys):
    parent = read_log(finished)
    assert cli(["fork", str(finished), "--at", "r3", "--no-play"]) == 0
    log = read_log(Path(capsys.readouterr().out.strip()))
    at = log.header.fork_at
    assert at is not None and parent.timeline.state(at).round == 3 and parent.timeline.state(at - 1).round == 2


def test_reseed_diverges_only_after_the_fork_point(finished, capsys):
    parent = read_log(finished)
    n = 30
    assert cli(["fork", str(finished), "--at", str(n), "--reseed", "--no-play"]) == 0
    log = read_log(Path(capsys.readouterr().out.strip()))
    assert log.header.reseed_point() is not None and log.header.reseed_at == n
    for i in range(n):
        assert encode_state(log.timeline.state(i)) == encode_state(parent.timeline.state(i))
    mine, theirs = log.timeline.state(n), parent.timeline.state(n)
    assert mine.rng != theirs.rng and encode_state(replace(mine, rng=theirs.rng)) == encode_state(theirs)
    # the same decisions after the fork point: equal until chance decides, then different
    # (a fixed new generator state, so the test does not depend on luck)
    fork = fork_session(parent, n, parent.seats, reseed=12345)
    state, first_chance, differs = fork.state, None, False
    for i in range(n, len(parent.actions)):
        theirs = parent.timeline.state(i + 1)
        if first_chance is None and chance_in(RULES, parent.timeline.state(i), theirs):
            first_chance = i
        try:
            state, _ = apply(state, parent.actions[i])
        except RuleError:  # the parent's decision is not even legal any more
            differs = True
            break
        same = replace(state, rng=0) == replace(theirs, rng=0)
        if first_chance is None:
            assert same
        elif not same:
            differs = True
            break
    assert first_chance is not None and differs
    # resuming the fork replays the new chance, not the parent's
    prepared = prepare_resume(str(log.path))
    assert not isinstance(prepared, int)
    session, _ = prepared
    assert encode_state(session.state) == encode_state(log.state)
    session.recorder.close()


def test_fork_errors(finished, capsys):
    assert cli(["fork", str(finished), "--at", "x", "--no-play"]) == 2
    assert cli(["fork", str(finished), "--at", "100000", "--no-play"]) == 2
    assert cli(["fork", str(finished), "--at", "5", "--humans", "9", "--no-play"]) == 2
    assert cli(["fork", str(finished), "--at", "5", "--humans", "Nobody", "--no-play"]) == 2
    assert cli(["fork", str(finished), "--at", "5", "--bots", "nobot", "--no-play"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unknown bot 'nobot'" in err
    log = read_log(finished)
    with pytest.raises(ForkError):
        fork_session(log, len(log.actions), log.seats)  # the game is over there


def test_seat_kinds(finished):
    log = read_log(finished)
    assert seat_kinds(log) == ("greedy", "greedy", "random")
    assert seat_kinds(log, [0]) == ("human", "greedy", "random")
    assert seat_kinds(log, [1], ["random"]) == ("random", "human", "random")
    assert seat_kinds(log, None, ["random", "greedy"]) == ("random", "greedy", "greedy")


def test_a_fork_plays_on_and_is_recorded(finished, tmp_path):
    log = read_log(finished)
    session, path = start_fork(log, 50, ("greedy", "random", "random"), folder=tmp_path / "forks")
    while session.bot_to_act():
        session.step_bot()
    assert session.state.phase == "over"
    again = read_log(path)
    assert again.error is None and again.actions == session.actions and again.actions[:50] == log.actions[:50]
    assert path.parent == tmp_path / "forks" and path.name == "parent-fork-1.jsonl"


def test_the_viewer_of_a_fork_opens_the_parent_at_the_fork_point(finished, tmp_path):
    import asyncio

    from colosseum.tui.review_app import ViewerApp
    from colosseum.tui.viewer import ViewerScreen

    log = read_log(finished)
    session, path = start_fork(log, 25, folder=tmp_path)  # beside the parent
    session.recorder.close()
    fork = read_log(path)
    app = ViewerApp(fork)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "o: parent (fork at 25)" in app.screen.bar_text()
            await pilot.press("o")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ViewerScreen) and screen.title_text == finished.name and screen.index == 25

    asyncio.run(go())


def test_a_damaged_reseeded_fork_is_rescued_with_its_reseed_point(finished, tmp_path):
    from colosseum.tui.storage import save_rescued

    parent = read_log(finished)
    session, path = start_fork(parent, 30, parent.seats, reseed=True, folder=tmp_path / "forks")
    for _ in range(40):
        if not session.step_bot():
            break
    session.recorder.close()
    data = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(data[:-3] + [b'{"i":"x"}', b""]))  # damage the end
    log = read_log(path)
    assert log.error is not None and len(log.actions) > 30
    rescued = read_log(save_rescued(log))
    assert rescued.error is None and rescued.header.reseed_point() == log.header.reseed_point() is not None
    assert rescued.header.fork_of == finished.name and rescued.actions == log.actions
    assert encode_state(rescued.state) == encode_state(log.state)
