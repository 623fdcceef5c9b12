"""The legend (issue 23): every code and symbol on the game's panels is explained, in the edition's
words, one key away (k on the game screen and in a dialog) and in the help."""

from __future__ import annotations

import asyncio

import pytest
from dialog_harness import dialog_app, make_session, open_first, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.registry import spec
from colosseum.tui.client import load_client
from colosseum.tui.games.colosseum.players import PlayersPanel
from colosseum.tui.games.municipium.text import CARD_SHORT
from colosseum.tui.screens.legend import legend_text

COLOSSEUM = load_client(spec("colosseum"))


def symbols(sections) -> set[str]:
    """Every word of every symbol column ("Acc / Acclaim" gives Acc and Acclaim)."""
    return {w for _, rows in sections for sym, _ in rows for w in sym.replace("/", " ").split()} | {
        sym for _, rows in sections for sym, _ in rows
    }


@pytest.mark.parametrize("variant", ["grand", "classic", "original"])
def test_every_tile_code_is_explained(variant):
    cat = load_catalog(variant)
    setup = GameSetup(players=("A", "B", "C"), seed=1, variant=variant)
    shown = symbols(COLOSSEUM.legend(setup))
    for kind in (*cat.holdable, cat.aquila_tile):
        assert cat.tiles[kind].short in shown, cat.tiles[kind].short
    for mark in ("*", ">", "E", "C", "S", "A-E", "F", "Stacks", "have", "miss", "now", "up"):
        assert mark in shown, mark


def test_the_original_edition_in_its_words():
    original = legend_text(COLOSSEUM.legend(GameSetup(players=("A", "B", "C"), seed=1, variant="original"))).plain
    for word in ("medal", "arena piece", "season ticket", "podium", "spectators", "program"):
        assert word in original, word
    for word in ("Aquila", "promoter", "gift", "|b|"):
        assert word not in original, word


@pytest.mark.parametrize("variant", ["grand", "original"])
def test_the_impresarios_heads_on_screen_are_in_the_legend(variant):
    """The heads the players panel draws at 80x24 (narrow) and 120x40 (wide)."""
    setup = GameSetup(players=("Becky", "Kat", "Laura", "Marcus"), seed=3, variant=variant)
    shown = symbols(COLOSSEUM.legend(setup))
    for size in ((80, 24), (140, 40)):
        app = dialog_app(make_session(setup, [], humans=(0, 1, 2, 3)))

        async def go(size=size, app=app):
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                panel = app.game_screen().query_one(PlayersPanel)
                head = panel.build_lines()[0].plain.split()
                assert head[0] == "Name"
                for word in head[1:]:
                    assert word in shown, (size, word)

        asyncio.run(go())


def test_municipium_codes():
    sections = load_client(spec("municipium")).legend(None)
    shown = symbols(sections)
    for code in ("Ban", "Chm", "Roads", "Members", "G", "f", "*", "D", "F", "P", "S", "M", "A", *CARD_SHORT.values()):
        assert code in shown, code


def test_k_opens_the_legend_from_the_game_screen_a_dialog_and_the_help_shows_it():
    setup = GameSetup(players=("Becky", "Kat", "Laura"), seed=3, variant="classic")
    app = dialog_app(make_session(setup, []))

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("k")
            await settle(pilot)
            assert type(app.screen).__name__ == "LegendScreen"
            text = legend_text(app.screen.client.legend(app.screen.setup)).plain
            assert "Bal" in text and "Con" in text  # the classic game's construction tiles
            await pilot.press("escape")
            await open_first(pilot)
            assert "Dialog" in type(app.screen).__name__
            await pilot.press("k")
            await settle(pilot)
            assert type(app.screen).__name__ == "LegendScreen"
            await pilot.press("k")
            await settle(pilot)
            assert "Dialog" in type(app.screen).__name__
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("f1")
            await settle(pilot)
            assert "The codes and symbols" in str(app.screen.query_one("#help-text").render())

    asyncio.run(go())
