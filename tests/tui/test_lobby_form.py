"""The lobby's new-table form: fits an 80x24 terminal, is drawn in ASCII and box
drawing only (no block elements or triangles, which some terminals draw two cells wide), and
creates the table it shows from the keyboard alone."""

from __future__ import annotations

import asyncio
import re

from test_glyphs import allowed
from textual.widgets import Input

from colosseum.tui.base import BaseApp
from colosseum.tui.net.lobby import CreateTable


def layout_chars(svg: str) -> set[str]:
    import html

    return set(html.unescape("".join(re.findall(r"<text [^>]*>([^<]*)</text>", svg))))


class StubClient:
    def __init__(self) -> None:
        self.created: list[dict] = []

    def create_table(self, **kw):
        self.created.append(kw)
        return None


class FormApp(BaseApp):
    def __init__(self) -> None:
        super().__init__()
        self.client = StubClient()
        self.requests = []

    def on_mount(self) -> None:
        self.push_screen(CreateTable())

    def enter(self, request) -> None:  # LobbyApp.enter: run the request
        self.requests.append(request())


def test_new_table_form_fits_80x24_in_ascii_and_creates_from_the_keyboard():
    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            form = app.screen.query_one("#form")
            assert form.region.y >= 0 and form.region.bottom <= 24, form.region
            assert app.screen.query_one("#create").region.bottom <= 23  # on screen, above nothing
            bad = {ch for ch in layout_chars(app.export_screenshot()) if not allowed(ch)}
            assert not bad, f"glyphs some terminals draw two cells wide: {sorted(bad)}"
            await pilot.press(*"Friday")
            await pilot.press("ctrl+s")
            await pilot.pause()
        (kw,) = app.client.created
        assert kw["name"] == "Friday" and kw["sit"] == 0
        assert kw["seats"] == ["human", "human", "human", "normal"]  # seat 5 empty by default
        # the message of one wire for every game: the game by name, options (none set here) by field
        assert kw["game"] == "colosseum" and "variant" not in kw and "options" not in kw
        assert kw["allow_takeover"] is False

    asyncio.run(go())


def test_the_forms_option_fields_come_from_the_option_specs():
    """The house rule ``starting_coins`` is one field of Colosseum's setup: the form has its
    number field, refuses a value out of range with the option's words, and sends it by field."""

    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            coins = scr.query_one("#ct-opt-starting-coins")
            assert coins.region.bottom <= 23  # on screen at 80x24
            coins.value = "120"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert any("Starting coins" in n.message for n in app._notifications)
            assert app.client.created == []
            coins.value = "20"
            scr.query_one("#ct-opt-variant").value = "original"
            await pilot.press("ctrl+s")
            await pilot.pause()
        (kw,) = app.client.created
        assert kw["options"] == {"variant": "original", "starting_coins": 20}

    asyncio.run(go())


def test_enter_typed_twice_creates_one_table():
    """Issue 24: lobby `n`, a name, Enter Enter created two tables (the second Enter reached the
    form again before it closed)."""

    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*"Friday")
            form = app.screen
            # two Enters arriving together: both reach the form before it has closed
            form.post_message(Input.Submitted(form.query_one("#name", Input), "Friday"))
            form.post_message(Input.Submitted(form.query_one("#name", Input), "Friday"))
            await pilot.pause()
            await pilot.pause()
        assert len(app.client.created) == 1

    asyncio.run(go())


def test_the_form_asks_for_a_rated_table():
    """``rated`` is a checkbox beside the hints (at 80x24), sent only when ticked."""

    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one("#rated")
            assert box.region.bottom <= 23 and box.region.right <= 80
            box.focus()
            await pilot.press("space")
            await pilot.press("ctrl+s")
            await pilot.pause()
        (kw,) = app.client.created
        assert kw["rated"] is True

    asyncio.run(go())


def test_a_rated_table_with_hints_is_refused_in_the_form():
    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.screen.query_one("#rated").value = True
            app.screen.query_one("#hints").value = True
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert [n.message for n in app._notifications] == ["A rated table gives no hints: choose one or the other."]
        assert app.client.created == []

    asyncio.run(go())


def test_the_form_asks_for_a_private_table_with_a_time_bank():
    """``private`` and the time bank (minutes, seconds per decision) fit at 80x24 and are sent
    only when asked for."""

    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for wid in ("#private", "#turn-hours", "#bank", "#increment", "#create"):
                region = app.screen.query_one(wid).region
                assert region.bottom <= 23 and region.right <= 80, wid
            app.screen.query_one("#private").focus()
            await pilot.press("space")
            app.screen.query_one("#bank").focus()
            await pilot.press("5")
            app.screen.query_one("#increment").focus()
            await pilot.press("3")
            app.screen.query_one("#turn-hours").focus()
            await pilot.press("2", "4")
            await pilot.press("ctrl+s")
            await pilot.pause()
        (kw,) = app.client.created
        assert kw["private"] is True and kw["bank"] == 300 and kw["increment"] == 3 and kw["turn_hours"] == 24

    asyncio.run(go())


def test_a_name_too_wide_for_the_server_is_refused_in_the_form_not_cut():
    """The field counts characters, the server a name's cells: 32 CJK characters went through
    and came back cut to 20, without a word."""

    async def go():
        app = FormApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*("漢" * 21), "ctrl+s")
            await pilot.pause()
            (note,) = [str(n.message) for n in app._notifications]
            assert "too long: 40 columns at most" in note and "(42 now)" in note
            assert app.client.created == []
            await pilot.press("backspace", "ctrl+s")  # 20 wide characters: 40 cells fit
            await pilot.pause()
        assert [kw["name"] for kw in app.client.created] == ["漢" * 20]

    asyncio.run(go())
