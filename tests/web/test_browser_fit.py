"""The browser's terminal fits its window: measured with the page's own font (textual-serve
measured with the fallback font, 18 px rows where Roboto Mono's are 21, so the key bar fell
below the window and a reload in the same window was too small), with a smaller font where
80x24 cells of 16 px do not fit; and the page's "session ended" notice shows over the
terminal (it was drawn under the terminal's canvas: a dead page looked live)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from browsing import browser_at_server, needs_browser, wait_for

pytestmark = needs_browser

FITS = """() => {
  const t = window.colosseumTerminals[0].terminal;
  const box = document.querySelector('.xterm-screen').getBoundingClientRect();
  return {cols: t.cols, rows: t.rows, bottom: box.bottom, right: box.right, h: innerHeight, w: innerWidth};
}"""


async def _fits(page) -> dict:
    await page.wait_for_timeout(500)  # (a resize is fitted on the window's event)
    got = await page.evaluate(FITS)
    assert got["cols"] >= 80 and got["rows"] >= 24, got
    assert got["bottom"] <= got["h"] + 0.5 and got["right"] <= got["w"] + 0.5, got
    return got


def test_the_terminal_fits_the_window_and_the_end_is_shown_over_it(tmp_path: Path):
    async def go():
        async with browser_at_server(tmp_path, {"width": 726, "height": 434}) as (web, page):
            await page.goto(web.link_for("key:SHA256:becky", "Aurelia Maximiliana Cornelia"))
            await wait_for(page, "Lobby - you are")
            await _fits(page)  # a small window: a smaller font, still 80x24
            await page.set_viewport_size({"width": 1280, "height": 800})
            big = await _fits(page)
            assert big["rows"] > 24
            await page.set_viewport_size({"width": 726, "height": 434})
            await _fits(page)
            await page.reload()  # the font is in now: the same window, the same fit
            await wait_for(page, "Lobby - you are")
            await _fits(page)
            await page.keyboard.press("q")  # the lobby's quit: the session ends
            await page.wait_for_function("document.body.classList.contains('-closed')", timeout=20_000)
            on_top = await page.evaluate(
                "() => !!document.elementFromPoint(innerWidth / 2, innerHeight / 2).closest('.closed')"
            )
            assert on_top
            assert "The session ended" in await page.inner_text(".closed")

    asyncio.run(asyncio.wait_for(go(), 120))
