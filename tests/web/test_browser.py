"""A real browser (Debian's Chromium, driven by Playwright through ``executable_path``: its own
browser download does not work on these machines) signs in with a one-time link and plays in
the lobby through ``colosseum serve --web``; the screen is read from the terminal's buffer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from browsing import ARGS, CHROMIUM, needs_browser, wait_for

from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import free_port
from colosseum.tui.net.host.web import WebGateway

pytestmark = needs_browser


def test_a_browser_signs_in_with_a_link_and_sees_the_lobby(tmp_path: Path):
    from playwright.async_api import async_playwright

    async def go():
        srv = await start_server(listen=f"127.0.0.1:{free_port()}", data=tmp_path / "data", open_to_all=True)
        web = WebGateway(srv.hub, listen=f"127.0.0.1:{free_port()}")
        await web.start()
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                try:
                    context = await browser.new_context(viewport={"width": 1100, "height": 700})
                    page = await context.new_page()
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
                finally:
                    await browser.close()
        finally:
            await web.close()
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 120))
