"""The command line: ``--version`` and ``simulate`` with its own defaults."""

from __future__ import annotations

import json

import pytest

from colosseum import __version__
from colosseum.tui.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
def test_simulate_defaults_fit_every_player_count(capsys, players, variant):
    assert main(["simulate", "--players", str(players), "--games", "1", "--variant", variant, "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert len(first["seats"]) == players
    assert "shared" in first


def test_the_command_line_offers_municipiums_own_options_m13(capsys):
    """M-13: ``play --game municipium`` takes Municipium's option flags, made from its option
    specs (the parse is two-phase: the game first); they are the engine's options; its help
    shows them and not Colosseum's."""
    from colosseum.core.games.municipium import OPTIONS
    from colosseum.core.registry import spec
    from colosseum.tui import cli

    (muni,) = spec("municipium").options
    assert tuple(c.value for c in muni.choices) == tuple(OPTIONS)
    args = cli.parse_args(["play", "--game", "municipium", "--option", "short", "--option", "single-chamber"])
    assert args.setup_options == {"options": ("short", "single-chamber")}
    with pytest.raises(SystemExit):
        cli.parse_args(["play", "--game", "municipium", "--help"])
    shown = capsys.readouterr().out
    assert "Municipium's options" in shown and "--option OPTION" in shown and "--variant" not in shown
    with pytest.raises(SystemExit):  # not one of its flags: argparse says so
        main(["play", "--game", "municipium", "--variant", "classic"])
    assert main(["play", "--game", "municipium", "--option", "turbo"]) == 2
    assert "Options: choose from short, single-chamber" in capsys.readouterr().err


def test_starting_coins_is_a_flag_made_from_its_field(capsys):
    """The house rule is one field of Colosseum's setup: the command line has its flag, checks
    its range with the option's words, and the game starts with it."""
    from colosseum.tui import cli
    from colosseum.tui.app import build_app

    args = cli.parse_args(["play", "--starting-coins", "20", "--first-player", "2", "--seed", "1", "--bot-delay", "0"])
    assert args.setup_options == {"starting_coins": 20, "first_player": 1}
    app = build_app(args, record=False)
    assert not isinstance(app, int)
    assert all(p.coins == 20 for p in app.session.state.players) and app.session.setup.first_player == 1
    assert main(["play", "--starting-coins", "120"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "colosseum: Starting coins must be from 0 to 99, not 120"
    assert main(["simulate", "--starting-coins", "5", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["seats"]


def test_play_loads_neither_the_second_game_nor_the_saved_games_commands():
    """Start-up: building the parser and importing the command module leaves Municipium's
    engine, the exporter and the saved-games storage unloaded (they load when used)."""
    import subprocess
    import sys

    code = (
        "import sys; import colosseum.tui.cli as c; c.build_parser(); "
        "print(','.join(m for m in ('colosseum.core.games.municipium', 'colosseum.tui.export', 'colosseum.tui.storage') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--bots", "hrad"], "Colosseum has no bot 'hrad'; choose from easy, normal, hard, expert, random"),
        (["play", "--game", "municipium", "--bots", "normal,hrad"], "Municipium has no bot 'hrad'"),
        (["simulate", "--bots", "hard,nope", "--games", "1"], "no bot 'nope'"),
        (["play", "--bot-delay", "-3"], "--bot-delay must be 0 to 60 seconds"),
        # bots that never move: an endless pause (the settings file's limit, 60 s, holds here too)
        (["play", "--bot-delay", "inf"], "--bot-delay must be 0 to 60 seconds, not inf"),
        (["resume", "--bot-delay", "1e308"], "--bot-delay must be 0 to 60 seconds"),
        (["tutorial", "--bot-delay", "nan"], "--bot-delay must be 0 to 60 seconds"),
        (["fork", "x.jsonl", "--at", "1", "--bot-delay", "61"], "--bot-delay must be 0 to 60 seconds"),
        # no longer the defaults in silence
        (["play", "--players", "0"], "played by 3 to 5 players, not 0"),
        (["play", "--game", ""], "--game needs a game's name"),
    ],
)
def test_bad_bots_and_delays_are_refused_in_one_line(capsys, argv, words):
    """Issue 23: ``--bots hrad`` gave random bots with a warning the screen hid; a negative delay
    was taken.  Both are refused before anything starts, in one line naming the valid values."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_a_screen_without_a_terminal_is_refused_in_one_line(tmp_path, monkeypatch):
    """Issue 23: ``colosseum view FILE </dev/null`` spun at 99 % CPU drawing into nothing: a
    screen without a terminal says so in one line and ends with status 2."""
    import subprocess
    import sys

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    proc = subprocess.run(
        [sys.executable, "-m", "colosseum.tui.cli", "play", "--humans", "0", "--seed", "1", "--exit-at-end"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "colosseum: this needs a terminal (standard input or output is not one)"
