"""A real browser (Debian's Chromium, driven by Playwright through ``executable_path``: its own
browser download does not work on these machines) signs in with a one-time link and plays in
the lobby through ``colosseum serve --web``; the screen is read from the terminal's buffer."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import free_port
from colosseum.tui.net.host.web import WebGateway

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("COLOSSEUM_REQUIRE_BROWSER"), reason="Chromium is not installed"
)

SCREEN_JS = """() => {
  const t = (window.colosseumTerminals || [])[0];
  if (!t) return "";
  const b = t.terminal.buffer.active, out = [];
  for (let y = 0; y < t.terminal.rows; y++) { const l = b.getLine(y); out.push(l ? l.translateToString(true) : ""); }
  return out.join("\\n");
}"""


async def screen(page) -> str:
    return str(await page.evaluate(SCREEN_JS))


async def wait_for(page, text: str, timeout: float = 30.0) -> str:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    shown = ""
    while loop.time() < end:
        shown = await screen(page)
        if text in shown:
            return shown
        await asyncio.sleep(0.2)
    raise AssertionError(f"{text!r} not on the browser's screen:\n{shown}")


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
                    shown = await wait_for(page, "Lobby")
                    assert "ベッキー" in shown
                    # every request went to this server: no font, script or image from elsewhere
                    assert all(u.startswith((web.public_url, "data:", "blob:")) for u in requests), requests
                    await page.keyboard.press("n")  # the new-table form, by the key as over SSH
                    await wait_for(page, "New table")
                finally:
                    await browser.close()
        finally:
            await web.close()
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 120))
