"""The new-game screen: players, names, seat types, seed, variant, option; then the game."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from colosseum.tui.app import ColosseumApp
from colosseum.tui.widgets.forms import Cycle


def run(coro):
    return asyncio.run(coro)


async def type_into(pilot, selector: str, text: str) -> None:
    inp = pilot.app.screen.query_one(selector, Input)
    inp.value = text
    await pilot.pause()


def test_defaults_start_a_four_player_game_with_one_human():
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            await type_into(pilot, "#ng-seed", "11")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"
            s = app.session
            assert s.setup.players == ("Becky", "Kat", "Laura", "Marcus")
            assert s.setup.seed == 11 and s.setup.variant == "grand" and s.setup.options == ()
            assert s.seats[0].kind == "human" and all(seat.is_bot for seat in s.seats[1:])

    run(go())


def test_three_players_names_kinds_variant_and_option():
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            scr.query_one("#ng-players", Cycle).value = 3
            await pilot.pause()
            assert not scr.query_one("#ng-seat-3").display and scr.query_one("#ng-seat-2").display
            await type_into(pilot, "#ng-name-0", "Ann")
            await type_into(pilot, "#ng-name-1", "Bo")
            scr.query_one("#ng-kind-1", Cycle).value = "human"
            scr.query_one("#ng-kind-2", Cycle).value = "random"
            scr.query_one("#ng-opt-variant", Cycle).value = "classic"
            scr.query_one("#ng-opt-options-auction-2007").value = True
            await type_into(pilot, "#ng-seed", "5")
            await pilot.pause()
            scr.action_start()
            await pilot.pause()
            s = app.session
            assert s.setup.players == ("Ann", "Bo", "Laura")
            assert [x.kind for x in s.seats] == ["human", "human", "random"]
            assert s.setup.variant == "classic" and s.setup.options == ("auction-2007",) and s.setup.seed == 5

    run(go())


def test_duplicate_or_empty_names_are_refused_with_a_message():
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await type_into(pilot, "#ng-name-1", "becky")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            assert any("differ" in n.message for n in app._notifications)
            await type_into(pilot, "#ng-name-1", "  ")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            assert any("name" in n.message for n in app._notifications)

    run(go())


def test_keyboard_only_path_to_a_game():
    """Tab through the form and press Enter on the button: no mouse needed."""
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(40):
                if app.focused is not None and app.focused.id == "ng-start":
                    break
                await pilot.press("tab")
            assert app.focused is not None and app.focused.id == "ng-start"
            await pilot.press("enter")
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"

    run(go())


def test_choices_change_with_the_arrow_keys():
    async def go():
        app = ColosseumApp(None, theme="colosseum-dark")
        async with app.run_test() as pilot:
            await pilot.pause()
            scr = app.screen
            assert app.focused is scr.query_one("#ng-name-0")
            players = scr.query_one("#ng-players", Cycle)
            players.focus()
            await pilot.press("left")
            await pilot.pause()
            assert players.value == 3 and not scr.query_one("#ng-seat-3").display
            await pilot.press("right", "right")
            await pilot.pause()
            assert players.value == 5 and scr.query_one("#ng-seat-4").display
            variant = scr.query_one("#ng-opt-variant", Cycle)
            variant.focus()
            await pilot.press("space")
            await pilot.pause()
            assert variant.value == "classic"

    asyncio.run(go())


def test_the_options_rows_come_from_the_option_specs():
    """Every option of the game's setup has its field, by kind: the starting-coins house rule (a
    number with its range) and who starts (by lot, or a seat) included; a bad value is refused
    with the option's own words."""
    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            coins = scr.query_one("#ng-opt-starting-coins", Input)
            first = scr.query_one("#ng-opt-first-player", Cycle)
            assert [label for label, _v in first.options] == ["by lot", "1", "2", "3", "4"]
            coins.value = "120"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            assert any("Starting coins" in n.message and "0 to 99" in n.message for n in app._notifications)
            coins.value = "20"
            first.value = 2
            scr.query_one("#ng-players", Cycle).value = 3  # seat 3 is still a seat
            await pilot.pause()
            assert first.value == 2 and [v for _l, v in first.options] == [None, 0, 1, 2]
            await pilot.press("ctrl+s")
            await pilot.pause()
            s = app.session
            assert s.setup.starting_coins == 20 and s.setup.first_player == 2
            assert all(p.coins == 20 for p in s.state.players)

    run(go())


def test_the_screen_opens_with_the_last_settings_chosen():
    """Issue 23: game, players, names, seat kinds and options are kept in settings.toml."""

    async def choose(pilot) -> None:
        await pilot.pause()
        scr = pilot.app.screen
        scr.query_one("#ng-players", Cycle).value = 3
        await pilot.pause()
        await type_into(pilot, "#ng-name-0", "小明")
        scr.query_one("#ng-kind-2", Cycle).value = "hard"
        scr.query_one("#ng-opt-variant", Cycle).value = "original"
        await pilot.press("ctrl+s")
        await pilot.pause()

    async def look(pilot) -> None:
        await pilot.pause()
        scr = pilot.app.screen
        assert scr.query_one("#ng-players", Cycle).value == 3
        assert scr.query_one("#ng-name-0", Input).value == "小明"
        assert scr.query_one("#ng-kind-2", Cycle).value == "hard"
        assert scr.query_one("#ng-opt-variant", Cycle).value == "original"

    for step in (choose, look):
        app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

        async def go(step=step, app=app):
            async with app.run_test(size=(80, 24)) as pilot:
                await step(pilot)

        run(go())
