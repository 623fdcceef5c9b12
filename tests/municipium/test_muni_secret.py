"""D-96: a server game's secret keys every draw of a Municipium game, not only the setup's.

Before, ``new_game`` kept the names, the seed and the options in the state's setup and dropped
the secret: the start player and the deck were keyed, but the chamber citizens and every later
draw from the bag (and the deck's reshuffle) came from SplitMix64 started from the keyed
generator's counter, the same in every server game of a player count: a player could compute
them all.  Version 3 logs of such games still replay as they were played."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import pytest
from test_muni_log import bots_game

from colosseum.core.gamelog import KEYED_VERSION, make_header
from colosseum.core.games.municipium import MuniSetup, new_game
from colosseum.core.logread import parse_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.options import OptionError, check_setup, internal_fields, option_specs
from colosseum.core.registry import rules, spec
from colosseum.core.rng import new_secret

MUNICIPIUM = rules("municipium")
LEGACY = Path(__file__).parent / "data" / "legacy-secret-v3.jsonl"


def test_the_chamber_citizens_and_the_bag_follow_the_secret():
    """Seed 0 and a fresh secret, as the server makes them: the chamber citizens drawn at the
    setup (and every draw after) differ from one secret to the next."""
    chambers = {
        new_game(MuniSetup(players=("a", "b", "c", "d"), seed=0, secret=new_secret())).chamber for _ in range(8)
    }
    assert len(chambers) >= 4, chambers


def test_the_state_keeps_the_secret_and_the_players_never_see_it():
    secret = new_secret()
    state = new_game(MuniSetup(players=(" Ann ", "Bo", "Cy"), seed=0, secret=secret))
    assert state.setup.secret == secret and state.setup.players == ("Ann", "Bo", "Cy")
    view = MUNICIPIUM.player_view(state, 0)
    assert view.setup.secret == "" and view.rng == 0
    assert secret not in MUNICIPIUM.encode(view).decode()


def test_a_log_of_a_game_with_a_secret_is_version_4_and_replays(tmp_path):
    setup = spec("municipium").make_setup(("Ann", "小明", "[/a]"), seed=0, secret=new_secret())
    game = MUNICIPIUM
    actions = bots_game(setup)  # normal bots to the end
    state = game.new_game(setup)
    for a in actions:
        state, _ = game.apply(state, a)
    w = LogWriter.create(
        tmp_path, "g", make_header(setup, ("human", "normal", "normal")), actions, fsync=False, end=True
    )
    w.close()
    log = parse_log(w.path.read_bytes())
    assert log.error is None and log.header.version == KEYED_VERSION
    assert not log.header.setup.legacy_draws
    assert game.encode(log.state) == game.encode(state)


def test_a_version_3_log_with_a_secret_replays_as_it_was_played():
    """Written by the code before the fix (seed 0, a secret, three normal bots to the end)."""
    log = parse_log(LEGACY.read_bytes())
    assert log.error is None and log.finished and log.header.version == 3
    assert log.header.setup.legacy_draws
    assert hashlib.sha256(MUNICIPIUM.encode(log.state)).hexdigest()[:16] == "ea1c52df3e329d53"
    assert MUNICIPIUM.scores(log.state) == (5, 3, 5)
    # the same setup read as a new one plays another game: its secret keys the draws
    fresh = msgspec.structs.replace(log.header.setup, legacy_draws=False)
    assert new_game(fresh).chamber != new_game(log.header.setup).chamber


def test_nobody_chooses_the_old_draws():
    """Not an option (no form field, flag or message sets it): only reading an old log does."""
    assert "legacy_draws" not in {o.name for o in option_specs(MuniSetup)}
    assert [name for name, _, _ in internal_fields(MuniSetup)] == ["legacy_draws"]
    with pytest.raises(OptionError, match="no option 'legacy_draws'"):
        spec("municipium").make_setup(("Ann", "Bo"), seed=0, secret=new_secret(), legacy_draws=True)
    legacy = MuniSetup(players=("Ann", "Bo"), seed=0, secret=new_secret(), legacy_draws=True)
    assert check_setup(legacy) == legacy  # a fork of an old game keeps what its log meant
