"""What the browser tests share: Debian's Chromium driven by Playwright through
``executable_path`` (Playwright's own browser download does not work on these machines), and
the screen read from the page's terminal buffer (xterm.js draws on a canvas; the page keeps its
terminals in ``window.colosseumTerminals``, ``host.web``)."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

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

#: skip a browser test where Chromium is missing, unless CI asks for it (COLOSSEUM_REQUIRE_BROWSER)
needs_browser = pytest.mark.skipif(
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
    """The page's terminal as text, one line a row."""
    return str(await page.evaluate(SCREEN_JS))


async def wait_for(page, *texts: str, timeout: float = 30.0) -> str:
    """The screen once every one of ``texts`` is on it (AssertionError with the screen after
    ``timeout``).  (All on one look: a screen is drawn in parts, the header before the key bar.)"""
    return await _wait(page, all, texts, timeout)


async def wait_for_any(page, *texts: str, timeout: float = 30.0) -> str:
    """The screen once one of ``texts`` is on it (AssertionError with the screen after ``timeout``)."""
    return await _wait(page, any, texts, timeout)


async def _wait(page, which, texts: tuple[str, ...], timeout: float) -> str:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    shown = ""
    while loop.time() < end:
        shown = await screen(page)
        if which(text in shown for text in texts):
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"{texts!r} ({which.__name__}) not on the browser's screen:\n{shown}")


@asynccontextmanager
async def browser_at_server(tmp_path: Path, viewport: dict[str, int]) -> AsyncIterator[tuple[Any, Any]]:
    """An open SSH server with its web gateway, and a page of headless Chromium at ``viewport``:
    (the gateway, the page); all closed afterwards."""
    from playwright.async_api import async_playwright

    from colosseum.tui.net.host.ssh import start_server
    from colosseum.tui.net.host.testing import free_port
    from colosseum.tui.net.host.web import WebGateway

    srv = await start_server(listen=f"127.0.0.1:{free_port()}", data=tmp_path / "data", open_to_all=True)
    web = WebGateway(srv.hub, listen=f"127.0.0.1:{free_port()}")
    await web.start()
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                context = await browser.new_context(viewport=viewport)
                yield web, await context.new_page()
            finally:
                await browser.close()
    finally:
        await web.close()
        await srv.close()
