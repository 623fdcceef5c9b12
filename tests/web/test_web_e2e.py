"""End to end, as players would: ``colosseum serve --listen … --web …`` in its own process; a
player logs in over SSH, presses ``w`` in the lobby and ``c`` to copy the one-time link, opens
it in a real browser (Chromium), and plays a table from the browser against a player over SSH
(and a bot) to the end of round 1; then closes the tab, opens the page again (the cookie signs
it in) and is back at the same seat.

Both screens are read as a person sees them: the browser's from the terminal's buffer in the
page, the SSH session's through a small terminal (``host.testing.Terminal``); keys go in as
keys.  Every wait is for something on a screen (or the server's word that a seat is empty),
never a fixed time.  The table's seed is fixed (``--fixed-seeds``), the players take the
shortest way through each decision (end the turn, pass, skip, reject; else Enter), so the game
is the same each run."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pytest
from browsing import ARGS, CHROMIUM, needs_browser, screen, wait_for, wait_for_any

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import SSHScreen, free_port
from colosseum.tui.net.host.tokens import load_secret, make_token

pytestmark = needs_browser

BROWSER_PLAYER = "Aurelia Maximiliana"
SSH_PLAYER = "小明"
SEED = 7
COLS, ROWS = 120, 36
AGAIN = 3.0


#: the shortest way through a decision: the dialog's key that ends, passes, skips or rejects
#: (read from its key bar), else Enter (its first choice)
_SHORT = re.compile(r"(?:^|\s)([a-z]) (?:end\b|pass\b|skip\b|reject\b)")


async def play_round_1(
    me: str, lines: Callable[[], Awaitable[list[str]]], press: Callable[[str], Awaitable[None]], timeout: float = 60
) -> tuple[int, int]:
    """Make ``me``'s decisions by keys until the header says round 2; returns how many keys,
    and how many of them were pressed again."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    pressed_at: list[str] | None = None
    pressed_when = 0.0
    last: list[str] = []
    keys = retries = 0
    while True:
        shown, settled = await lines(), last
        last = shown
        header = shown[0] if shown else ""
        if "Round 2/" in header:
            return keys, retries
        if loop.time() > end:
            raise AssertionError(f"{me}: round 1 did not end; the screen:\n" + "\n".join(shown))
        actor = re.search(r"\|\s+(.+?)(~)?: ", header)  # (a long name is cut short: "Aurelia Maxim~")
        mine = actor is not None and (me == actor[1] or (actor[2] is not None and me.startswith(actor[1])))
        # a key when the decision is this player's and the screen has changed since the last key
        # and is drawn (the same on two looks in a row): the player's eyes
        # (a key that changed nothing in AGAIN seconds is pressed again, as a person would: one
        # pressed the instant a dialog opened was seen lost, rarely)
        again = shown == pressed_at and loop.time() - pressed_when > AGAIN
        if mine and (shown != pressed_at or again) and shown == settled:
            # (Enter on the game screen opens the decision; in it, Enter takes the first choice)
            short = _SHORT.search(shown[-1])
            await press(short.group(1) if short else "Enter")
            pressed_at, pressed_when = shown, loop.time()
            keys += 1
            retries += again
        await asyncio.sleep(0.05)  # (polling the screen, not a wait for time to pass)


def _serve(tmp_path: Path, ssh_port: int, web_port: int) -> tuple[subprocess.Popen, list[str]]:
    keys = tmp_path / "players"
    env = {k: v for k, v in os.environ.items() if not k.startswith("COLOSSEUM_BOT")} | {"COLOSSEUM_BOT_DELAY": "0.01"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "colosseum",
            "serve",
            "--listen",
            f"127.0.0.1:{ssh_port}",
            "--web",
            f"127.0.0.1:{web_port}",
            "--data",
            str(tmp_path / "data"),
            "--authorized-keys",
            str(keys),
            "--bot-timeout",
            "600",
            "--turn-timeout",
            "0",
            "--fixed-seeds",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    out: list[str] = []
    end = time.monotonic() + 30
    assert proc.stdout is not None
    while time.monotonic() < end:
        line = proc.stdout.readline().decode()
        out.append(line)
        if line.startswith("web pages on"):
            return proc, out
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("the server did not start: " + "".join(out))


@pytest.mark.long(21)
def test_a_browser_player_and_an_ssh_player_play_round_1_and_the_closed_tab_comes_back(tmp_path: Path):
    from playwright.async_api import async_playwright

    started = time.monotonic()
    aurelia, ming = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    (tmp_path / "players").write_text(
        "".join(k.export_public_key().decode().strip() + f" {n}\n" for k, n in ((aurelia, "a"), (ming, "m")))
    )
    ssh_port, web_port = free_port(), free_port()
    server, out = _serve(tmp_path, ssh_port, web_port)
    public = out[-1].split()[-1]
    assert public == f"http://127.0.0.1:{web_port}"

    async def go() -> None:
        data = tmp_path / "data"
        host = await ProtoClient.connect(
            f"unix:{data / 'tables.sock'}", make_token(load_secret(data), "key:host", "Host")
        )
        host.send(P.CreateTable(seats=["human", "human", "random"], name="Arena", seed=SEED, sit=-1))
        tid = (await host.expect(lambda m: isinstance(m, P.Joined))).table.id

        # over SSH: w shows the one-time link, c copies it (OSC 52, the terminal's clipboard)
        first = await SSHScreen.open(ssh_port, aurelia, BROWSER_PLAYER, COLS, ROWS)
        await first.wait_for(f"Lobby - you are {BROWSER_PLAYER}")
        await first.press("w")
        await first.wait_for("Play in a browser")
        await first.press("c")
        for _ in range(600):
            if first.term.clipboard:
                break
            await asyncio.sleep(0.05)
        link = first.term.clipboard
        assert link.startswith(public + "/login/"), link
        assert link.replace("\n", "") in "".join(first.term.lines()).replace(" ", "")  # on screen too
        await first.close()

        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            context = await browser.new_context(viewport={"width": 1030, "height": 700})
            page = await context.new_page()
            ming_screen = await SSHScreen.open(ssh_port, ming, SSH_PLAYER, COLS, ROWS)
            try:
                await page.goto(link)
                await wait_for(page, f"Lobby - you are {BROWSER_PLAYER}")
                # 小明 sits first (over SSH), then the browser player: the game starts
                await ming_screen.wait_for("Arena")
                await ming_screen.press("Enter")
                await ming_screen.wait_for("waiting for players")
                await wait_for(page, "Arena")
                await page.keyboard.press("r")
                await wait_for(page, f"{SSH_PLAYER}")
                await page.keyboard.press("Enter")
                await wait_for(page, "Round 1/")
                await ming_screen.wait_for("Round 1/")

                async def browser_lines() -> list[str]:
                    return (await screen(page)).split("\n")

                played = await asyncio.gather(
                    play_round_1(BROWSER_PLAYER, browser_lines, page.keyboard.press),
                    play_round_1(SSH_PLAYER, ming_screen.lines, ming_screen.press),
                )
                assert all(keys for keys, _ in played), played  # each made decisions of their own
                round_1_at = time.monotonic()

                # the tab is closed: the seat is kept (absent), as after an SSH disconnect
                _drain(host)
                await page.close()
                seat = await _seat_of(host, tid, BROWSER_PLAYER, present=False)
                # the page again: the cookie signs it in, and the client goes back to the seat
                page = await context.new_page()
                await page.goto(public + "/")
                await wait_for(page, "Round 2/", "Aurelia")
                # at her seat: a seat's key on the game's bar, or her decision's dialog (whose bar
                # has the dialog's keys: a modal screen's bar shows no app keys)
                await wait_for_any(page, "Bot plays for me", "esc close")
                assert seat == await _seat_of(host, tid, BROWSER_PLAYER, present=True)
                print(
                    f"\nround 1 played in {round_1_at - started:.1f} s from the server's start "
                    f"(keys, of them pressed again: {played[0]} in the browser, {played[1]} over SSH); the test: "
                    f"{time.monotonic() - started:.1f} s"
                )
            finally:
                await ming_screen.close()
                await browser.close()
        await host.close()

    try:
        asyncio.run(asyncio.wait_for(go(), 150))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)


def _drain(c: ProtoClient) -> None:
    """Forget the messages ``c`` has taken in so far."""
    c.inbox.clear()
    while not c.queue.empty():
        if c.queue.get_nowait() is None:
            c.queue.put_nowait(None)
            return


async def _seat_of(host: ProtoClient, tid: str, name: str, *, present: bool) -> int:
    """The seat ``name`` holds at table ``tid`` once the server says it is (not) connected."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while loop.time() < end:
        m = await host.recv(timeout=max(0.1, end - loop.time()))
        if isinstance(m, P.Joined | P.TableChanged) and m.table.id == tid:
            for i, s in enumerate(m.table.seats):
                if s.name == name and s.present == present:
                    return i
    raise AssertionError(f"the server never said {name} is {'back' if present else 'away'}")
