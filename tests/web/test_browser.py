"""A real browser (Debian's Chromium, driven by Playwright through ``executable_path``: its own
browser download does not work on these machines) signs in with a one-time link and plays in
the lobby through ``colosseum serve --web``; the screen is read from the terminal's buffer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from browsing import browser_at_server, needs_browser, wait_for

pytestmark = needs_browser


def test_a_browser_signs_in_with_a_link_and_sees_the_lobby(tmp_path: Path):
    async def go():
        async with browser_at_server(tmp_path, {"width": 1100, "height": 700}) as (web, page):
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            await page.goto(web.public_url + "/")
            assert "press w in the lobby" in (await page.inner_text("body"))
            await page.goto(web.link_for("key:SHA256:becky", "ベッキー"))
            await wait_for(page, "Lobby - you are ベッキー")
            # every request went to this server: no font, script or image from elsewhere
            assert all(u.startswith((web.public_url, "data:", "blob:")) for u in requests), requests
            # keys go to the game from the start, no click first (textual-serve's page
            # left the terminal without the keyboard: "New table" in the key bar hid that)
            await page.keyboard.press("n")  # the new-table form, by the key as over SSH
            await wait_for(page, "Seat 1 is yours")

    asyncio.run(asyncio.wait_for(go(), 120))
