"""The lobby's new-table form chooses the game: a Municipium table has 2 to 4 seats, its bot
levels and its M-13 options (made from its option specs); the form still fits 80x24 and is
driven from the keyboard; it sends the game by name and its options by field."""

from __future__ import annotations

import asyncio

from textual.widgets import Select

from colosseum.tui.base import BaseApp
from colosseum.tui.net.lobby import CreateTable


class StubClient:
    def __init__(self) -> None:
        self.created: list[dict] = []

    def create_table(self, **kw):
        self.created.append(kw)


class FormApp(BaseApp):
    def __init__(self) -> None:
        super().__init__()
        self.client = StubClient()

    def on_mount(self) -> None:
        self.push_screen(CreateTable())

    def enter(self, request) -> None:
        request()


def test_m13_lobby_form_creates_a_municipium_table_from_the_keyboard():
    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            await pilot.press("tab")  # from the name to the game
            assert app.focused.id == "game"
            await pilot.press("enter", "down", "enter")
            await pilot.pause()
            assert scr.query_one("#game", Select).value == "municipium"
            assert scr.query_one("#ct-opt-options-short").display  # its M-13 options, from its option specs
            assert scr.query_one("#seat4", Select).value == ""
            assert not scr.query_one("#seat4").parent.display  # 2 to 4 players: no fifth seat row
            form = scr.query_one("#form")
            assert form.region.bottom <= 24 and scr.query_one("#create").region.bottom <= 23
            scr.query_one("#seat3", Select).value = ""  # three players
            scr.query_one("#ct-opt-options-single-chamber").value = True
            await pilot.press("ctrl+s")
            await pilot.pause()
        (kw,) = app.client.created
        assert kw["game"] == "municipium" and kw["seats"] == ["human", "human", "human"]
        assert (
            kw["options"] == {"options": ["single-chamber"]} and "variant" not in kw and kw["allow_takeover"] is False
        )

    asyncio.run(go())


def fill_form(games: list[str], seats: dict[int, str]) -> tuple[FormApp, list[bool]]:
    """Choose each game of ``games`` in turn, set ``seats`` (index: value), press ctrl+s.
    Returns the app and whether the fifth seat row was shown when the seats were set."""
    shown: list[bool] = []

    async def go(app: FormApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            for game in games:
                scr.query_one("#game", Select).value = game
                await pilot.pause()
            shown.append(bool(scr.query_one("#seat4").parent.display))
            for i, value in seats.items():
                scr.query_one(f"#seat{i}", Select).value = value
            await pilot.press("ctrl+s")
            await pilot.pause()

    app = FormApp()
    asyncio.run(go(app))
    return app, shown


def test_a_municipium_table_has_no_fifth_seat_and_colosseum_gets_it_back():
    app, shown = fill_form(["municipium"], {4: "normal"})  # not shown: not counted
    (kw,) = app.client.created
    assert shown == [False] and kw["seats"] == ["human", "human", "human", "normal"]
    app, shown = fill_form(["municipium", "colosseum"], {4: "normal"})
    (kw,) = app.client.created
    assert shown == [True] and kw["game"] == "colosseum" and len(kw["seats"]) == 5


def test_a_municipium_table_refuses_too_few_seats_in_the_form():
    app, _ = fill_form(["municipium"], {1: "", 2: "", 3: ""})
    assert any("2 to 4 seats" in n.message for n in app._notifications)
    assert app.client.created == []
