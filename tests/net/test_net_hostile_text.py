"""What users type is text, never markup or terminal control: table names, player names and
chat lines with Rich markup, control characters, bidi overrides, zero-width and wide (CJK)
characters go through every place the lobby and the game show them.  The table paced_server runs
on its own loop in a thread, as in ``colosseum serve``."""

from __future__ import annotations

import asyncio

from colosseum.core.games.colosseum import to_act
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.names import cells, clean_name, clean_text, name_key
from colosseum.tui.net.host.ssh import display_name
from colosseum.tui.net.remote import RemoteClient

# what an attacker types as a user name (the SSH side cleans it as it would)
EVIL_USER = "[bold red]EVIL\u202e\u200b漢字\x1b[2J"
EVIL_NAME = display_name(EVIL_USER)
TABLE_NAME = "[/]"
CHAT = "[red]hi[/] \x1b[31m\x07 [link=file:///etc/passwd]x[/link] 字\u202e"


def screen_text(app) -> str:
    """The current screen as plain text, one line per row."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return "\n".join("".join(seg.text for strip in line for seg in strip) for line in update.strips)


def test_names_are_cleaned_but_markup_is_kept_as_text():
    assert EVIL_NAME == "[bold red]EVIL漢字[2J"  # no bidi override, zero-width space or ESC
    assert name_key("alice\u200b") == name_key("ALICE") == name_key("ａｌｉｃｅ") == "alice"
    assert clean_text("a\u202eb\u2066c\u200dd\x00e\x7ff\u2028g", 40) == "abcdef g"  # a line separator is a space
    assert clean_text("[/]", 40) == "[/]"
    assert cells(clean_text("漢" * 50, 40)) == 40 and cells(clean_name("字" * 30)) <= 24
    assert clean_text("e" + "\u0301" * 50, 10) == "\u00e9\u0301\u0301"  # composed, then no pile of combining marks
    assert clean_text("  a \t\n  b  ", 10) == "a b"


def test_lobby_waiting_room_seat_picker_and_notifications_show_hostile_text(paced_server):
    from colosseum.tui.net.lobby import LobbyApp, LobbyScreen, SeatPicker, WaitingScreen

    evil = RemoteClient(paced_server.address, paced_server.token_for("key:evil", EVIL_NAME))
    app = LobbyApp(evil)

    async def create():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("n")  # as reported: n, the name [/], Ctrl+S
            await pilot.pause(0.3)
            await pilot.press(*TABLE_NAME)
            await pilot.press("ctrl+s")
            for _ in range(50):
                await pilot.pause(0.1)
                if isinstance(app.screen, WaitingScreen):
                    break
            assert isinstance(app.screen, WaitingScreen)
            text = screen_text(app)
            assert TABLE_NAME in text and EVIL_NAME in text
            app.screen.query_one("#say").value = CHAT
            await pilot.press("enter")
            for _ in range(30):
                await pilot.pause(0.1)
                if "hi[/]" in screen_text(app):
                    break
            text = screen_text(app)
            assert f"{EVIL_NAME}: [red]hi[/]" in text and "[link=file:///etc/passwd]x[/link] 字" in text
            assert "\x1b" not in text and "\x07" not in text
            await pilot.press("escape")  # back to the lobby: the table is listed by its name
            await pilot.pause(0.5)

    asyncio.run(asyncio.wait_for(create(), 30))
    ((tid, table),) = [(t, x) for t, x in paced_server.tables.items()] or [(None, None)]
    assert tid is None  # everybody left the waiting table: removed

    # a table with a bot seat and take-overs, and an evil name as its creator
    joined = evil.create_table(
        seats=["human", "greedy", "random"], sit=0, allow_takeover=True, name=TABLE_NAME + "\u202e\x1b[5m"
    )
    assert joined.table.name == TABLE_NAME + "[5m"
    evil.client_seat = 0
    bob = RemoteClient(paced_server.address, paced_server.token_for("key:bob", "bob"))
    app2 = LobbyApp(bob)

    async def look():
        async with app2.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)
            lobby = app2.screen
            assert isinstance(lobby, LobbyScreen)
            text = screen_text(app2)
            assert TABLE_NAME in text and "[greedy]" in text and "[rand" in text  # (cut at 80 columns)
            assert EVIL_NAME[:8] in text
            # the key bar fits 80 columns: the keys the lines above name leave it first
            from rich.cells import cell_len

            from colosseum.tui.widgets.keybar import KeyBar

            bar = lobby.query_one(KeyBar).render().plain.rstrip()
            assert cell_len(bar) <= 80 and bar.endswith("^p palette") and "q Quit" in bar, bar
            await pilot.press("h")  # the finished games: the live tables' keys leave the bar
            await pilot.pause(0.3)
            bar = lobby.query_one(KeyBar).render().plain
            assert "h Live tables" in bar and "Watch" not in bar and "New table" not in bar, bar
            await pilot.press("h")
            await pilot.pause(0.3)
            bar = lobby.query_one(KeyBar).render().plain
            assert "h Finished" in bar and "s Watch" in bar and not lobby.history, bar
            # a notification with a user's text in it: shown, not parsed
            app2._table_message(P.Error(message=f"seat 1 is held by {EVIL_NAME} at {TABLE_NAME}"))
            await pilot.pause(0.3)
            shown = [n for n in app2._notifications if "held by [bold red]EVIL" in n.message]
            assert shown and not any(n.markup for n in shown)
            # the seat picker (a bot's seat between its turns)
            for _ in range(100):
                t = bob.list_tables()[0]
                if t.status == "playing" and to_act(paced_server.tables[t.id].state) != 1:
                    break
                await pilot.pause(0.05)
            app2.push_screen(SeatPicker(t, [1, 2]))
            await pilot.pause(0.3)
            text = screen_text(app2)
            assert f"at {TABLE_NAME}[5m" in text and "Seat 2: greedy bot" in text

    asyncio.run(asyncio.wait_for(look(), 30))
    evil.close()
    bob.close()


def test_game_screen_shows_hostile_names_and_chat_as_text(paced_server):
    from colosseum.tui.net.client import _game_app

    evil = RemoteClient(paced_server.address, paced_server.token_for("key:evil", EVIL_NAME))
    joined = evil.create_table(seats=["human", "random", "random"], sit=0, seed=5, name=TABLE_NAME)
    session = evil.session_for(joined)
    session.say(CHAT)
    app = _game_app(session, None)
    assert app.allow_local_games is False  # type: ignore[attr-defined]

    async def go():
        async with app.run_test(size=(120, 36)) as pilot:  # type: ignore[attr-defined]
            for _ in range(50):
                await pilot.pause(0.1)
                if "hi[/]" in screen_text(app):
                    break
            text = screen_text(app)
            assert EVIL_NAME in text
            assert "[red]hi[/]" in text and "\x1b" not in text
            # our turn: the table's clock runs for us, shown under the arena
            for _ in range(50):
                if to_act(session.state) == 0 and "clock: you" in screen_text(app):
                    break
                await pilot.pause(0.1)
            assert "clock: you 8" in screen_text(app) or "clock: you 9" in screen_text(app)
            # no local game, no screenshot from a remote session
            screens = len(app.screen_stack)  # type: ignore[attr-defined]
            app.action_new_game()  # type: ignore[attr-defined]
            await pilot.pause(0.2)
            assert len(app.screen_stack) == screens  # type: ignore[attr-defined]
            assert app.check_action("new_game", ()) is False  # type: ignore[attr-defined]
            from colosseum.tui.commands import ColosseumCommands

            (provider,) = [p() for p in app.COMMANDS if isinstance(p(), type) and issubclass(p(), ColosseumCommands)]  # type: ignore[attr-defined]
            assert "New game" not in [name for name, _cb, _help in provider(app.screen)._commands()]
            titles = [c.title for c in app.get_system_commands(app.screen)]  # type: ignore[attr-defined]
            assert "Screenshot" not in titles and app.save_screenshot() == ""  # type: ignore[attr-defined]

    asyncio.run(asyncio.wait_for(go(), 30))
    evil.close()


def test_a_player_named_like_markup_gets_a_dialog_with_the_name_as_text(paced_server):
    from colosseum.tui.net.client import _game_app

    name = "[/]x[bold red]EVIL"
    evil = RemoteClient(paced_server.address, paced_server.token_for("key:markup", name))
    joined = evil.create_table(seats=["human", "random", "random"], sit=0, seed=5)
    session = evil.session_for(joined)
    app = _game_app(session, None)

    async def go():
        async with app.run_test(size=(120, 36)) as pilot:  # type: ignore[attr-defined]
            for _ in range(80):
                await pilot.pause(0.1)
                if app._exception is not None:  # type: ignore[attr-defined]
                    break
                if to_act(session.state) == 0 and "choose" in screen_text(app):
                    break
            assert f"{name}: choose" in screen_text(app)
            await pilot.press("escape")  # the dialog aside: the board of the player to act
            await pilot.pause(0.3)
            assert f"{name}'s board" in screen_text(app)

    try:
        asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        evil.close()


def test_wide_characters_keep_the_game_screen_aligned(paced_server):
    from rich.cells import cell_len

    from colosseum.tui.net.client import _game_app

    wide = RemoteClient(paced_server.address, paced_server.token_for("key:wide", "漢字漢字"))
    joined = wide.create_table(seats=["human", "random", "random"], sit=0, seed=5)  # waits for us
    session = wide.session_for(joined)
    session.say("字" * 60)
    app = _game_app(session, None)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            for _ in range(50):
                await pilot.pause(0.1)
                if "字字" in screen_text(app):
                    break
            await pilot.press("escape")  # the dialog aside: the log and the panels
            await pilot.pause(0.3)
            rows = screen_text(app).split("\n")
            assert any("字字" in r for r in rows)
            assert all(cell_len(r) == 80 for r in rows)
            # every panel border where it belongs: the log's right edge in one column
            edges = {r.index("││") if "││" in r else -1 for r in rows[12:20]}
            assert len(edges - {-1}) <= 1, rows

    try:
        asyncio.run(asyncio.wait_for(go(), 30))
    finally:
        wide.close()


def test_the_lobby_pages_through_many_tables_and_the_finished_games(paced_server):
    from colosseum.tui.net.lobby import LobbyApp

    makers = [RemoteClient(paced_server.address, paced_server.token_for(f"key:m{i}", f"m{i}")) for i in range(31)]
    for i, c in enumerate(makers):
        for k in range(5):
            c.create_table(seats=["human", "human", "human"], sit=0, name=f"t{i}-{k}")
    viewer = RemoteClient(paced_server.address, paced_server.token_for("key:viewer", "viewer"))
    app = LobbyApp(viewer)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.5)
            assert "[1-100 of 155 tables]" in screen_text(app)
            await pilot.press("right_square_bracket")
            await pilot.pause(0.3)
            assert "[101-155 of 155 tables]" in screen_text(app)
            await pilot.press("right_square_bracket")  # no page beyond the last
            await pilot.pause(0.3)
            assert "[101-155 of 155 tables]" in screen_text(app)
            await pilot.press("left_square_bracket")
            await pilot.pause(0.3)
            assert "[1-100 of 155 tables]" in screen_text(app)
            await pilot.press("h")
            await pilot.pause(0.3)
            assert "no finished games" in screen_text(app) and "Winner" in screen_text(app)
            await pilot.press("enter")  # a finished game cannot be joined: said so
            await pilot.press("h")
            await pilot.pause(0.3)
            assert "of 155 tables" in screen_text(app)

    asyncio.run(asyncio.wait_for(go(), 60))
    for c in [*makers, viewer]:
        c.close()
