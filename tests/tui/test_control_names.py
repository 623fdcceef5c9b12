"""Player names are plain text (``core.names``): a name with a control character (ESC, BEL, a
newline, a tab, a bidi override) is refused where it is made (the command line, the new-game
screen, any setup made from plain values), and a saved log that carries one (an older program's,
or one made by hand) is still read, its names shown with "?": nothing sends ESC or BEL to a
terminal, and the log's digest chain is kept (the game resumes from it)."""

from __future__ import annotations

import asyncio
import json
import re

import msgspec
import pytest

from colosseum.core.gamelog import make_header
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.names import name_problem, printable, printable_names
from colosseum.core.options import OptionError
from colosseum.core.registry import rules, spec
from colosseum.tui.cli import main

#: what the tester gave ``--names``
BAD = ("\x1b]2;PWNED-TITLE\x07Name", "\x1b[31mRED\x1b[0m", "two\nlines", "tab\there\x07bell", "a\u202etxt")
#: anything a terminal would act on: C0 and C1 controls but the newline, and the bidi controls
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.mark.parametrize("name", BAD)
@pytest.mark.parametrize("game", ["colosseum", "municipium"])
def test_every_setup_made_from_plain_values_refuses_a_name_with_a_control_character(game, name):
    found = spec(game)
    names = [name, *found.default_names[1 : found.default_players]]
    with pytest.raises(OptionError) as err:
        found.make_setup(names, seed=1)
    message = str(err.value)
    assert "control character" in message and "\n" not in message and not CONTROL.search(message)
    found.make_setup(["Li\u200bLi", "小明", "[/a]", "Kat"][: found.default_players], seed=1)  # still names


def test_the_rule_in_one_place():
    assert name_problem("Becky") is None and name_problem("Aurelia Maximiliana") is None
    assert "U+001B" in (name_problem("\x1b[31mRED") or "")
    assert printable("\x1b]2;T\x07N\u2028x") == "?]2;T?N?x"
    assert printable_names(["a\x07", "a\x1b", "b"]) == ("a? (1)", "a?", "b")  # still distinct


@pytest.mark.parametrize("names", [",".join(BAD[:3]), "two\nlines,b,c", "tab\there,bell\x07,c"])
@pytest.mark.parametrize("game", ["colosseum", "municipium"])
def test_play_refuses_such_names_in_one_line(capsys, game, names):
    argv = ["play", "--game", game, "--players", "3", "--names", names, "--humans", "0", "--bots", "easy"]
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and "control character" in out.err
    assert not CONTROL.search(out.err)


def test_the_new_game_screen_refuses_such_a_name():
    from textual.widgets import Input

    from colosseum.tui.app import ColosseumApp

    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.screen.query_one("#ng-name-1", Input).value = "\x1b]2;PWNED\x07Kat"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            said = [n.message for n in app._notifications]
            assert any("control character" in m for m in said), said
            assert not any(CONTROL.search(m) or "\n" in m for m in said)

    asyncio.run(go())


def test_remembered_names_with_control_characters_are_shown_printable():
    from colosseum.tui.screens.newgame import NewGameSettings

    got = NewGameSettings.from_remembered({"names": ["\x1b[31mRED", "Kat"]})
    assert got.names[:2] == ["?[31mRED", "Kat"]


def _old_log(folder, game: str, players: int, cut: int = 40):
    """A log whose names carry ESC, BEL, a newline and a tab, as an older program wrote it (the
    setup is made as the log reader makes it, not through ``make_setup``)."""
    r = rules(game)
    setup = r.spec.make_setup(r.spec.default_names[:players], seed=5)
    setup = msgspec.structs.replace(setup, players=BAD[:players])
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("random", 5 + i) for i in range(players)]
    while not r.is_over(state) and len(actions) < cut:
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"old-{game}.jsonl"
    LogWriter.create_at(path, make_header(setup, ("human",) * players), actions, fsync=False).close()
    assert b"\\u001b" in path.read_bytes()  # the file keeps what it says
    return path


@pytest.mark.parametrize(("game", "players"), [("colosseum", 4), ("municipium", 3)])
def test_a_log_with_such_names_is_read_and_written_out_with_no_control_character(capsys, game, players):
    from colosseum.tui.storage import games_dir

    path = _old_log(games_dir(create=True), game, players)
    log = read_log(path)
    assert log.error is None  # the digest chain holds: the names are read, not rewritten
    assert tuple(log.setup.players) == printable_names(BAD[:players])
    assert path.read_bytes().count(b"\\u001b") >= 2  # the file itself is untouched

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "?]2;PWNED-TITLE?Name" in out and not CONTROL.search(out)
    for fmt in ("text", "json"):
        assert main(["export", str(path), "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert not CONTROL.search(out), fmt
        assert "two\nlines" not in out and "two?lines" in out
        if fmt == "json":
            json.loads(out)


def test_the_viewer_of_such_a_log_shows_no_control_character(tmp_path):
    from replaygame import viewer_screen

    log = read_log(_old_log(tmp_path, "colosseum", 4))
    screen = asyncio.run(viewer_screen(log, 20, (120, 40)))
    assert not CONTROL.search(screen)
    assert "two?lines" in screen or "two?li" in screen


def test_a_game_with_such_names_resumes_and_its_chain_still_holds(tmp_path):
    path = _old_log(tmp_path, "colosseum", 4, cut=10)
    log = read_log(path)
    assert log.error is None and log.appendable
    r = rules("colosseum")
    action = r.make_bot("random", 1).act(log.state)
    writer = LogWriter.open_append(path, len(log.actions), digest=log.digest, fsync=False)
    try:
        writer.append_action(action)
    finally:
        writer.close()
    again = read_log(path)
    assert again.error is None and len(again.actions) == len(log.actions) + 1
    assert r.names(again.state) == printable_names(BAD[:4])


def test_a_file_name_with_an_escape_sequence_reaches_no_terminal(capsys):
    """Names in a log are read printable; a file's own name is anyone's too (a game sent by
    someone): ``games``, ``export`` and the errors print it with ``?`` for each control character."""
    from colosseum.tui.storage import games_dir

    path = _old_log(games_dir(create=True), "colosseum", 4)
    bad = path.with_name("\x1b]2;PWNED\x07.jsonl")
    path.rename(bad)
    assert main(["games"]) == 0
    assert main(["export", str(bad)]) == 0
    out = capsys.readouterr().out
    assert "?]2;PWNED?.jsonl" in out and not CONTROL.search(out)
    assert main(["view", str(bad.with_name("\x1b[31mnone.jsonl"))]) != 0
    err = capsys.readouterr().err
    assert "?[31mnone" in err and not CONTROL.search(err)
