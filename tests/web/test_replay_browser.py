"""The HTML replay (``colosseum export --format html``) in a real browser (Debian's Chromium,
driven by Playwright through ``executable_path``, as test_browser.py): a whole seeded game opens
at the start and at ``#m123`` with the viewer's position at that move, the keys step and the
address follows, nothing is fetched, and hostile names stay text."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
from replaygame import NAMES, same_position, save_game, viewer_screen

from colosseum.core.logread import read_log
from colosseum.tui.cli import main as cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("COLOSSEUM_REQUIRE_BROWSER"), reason="Chromium is not installed"
)

SIZE = (120, 40)


async def shown(page) -> tuple[str, int]:
    """The frame's text as the browser lays it out, and the position it says it is."""
    await page.wait_for_selector("body[data-ready]")
    text = await page.inner_text("#screen")
    return text, int(await page.get_attribute("#screen", "data-index") or -1)


def test_the_replay_opens_at_the_start_and_at_a_move_as_the_viewer_shows_them(tmp_path: Path):
    from playwright.async_api import async_playwright

    game = save_game(tmp_path, "colosseum", 5, 3, name="grand")
    out = tmp_path / "replay.html"
    assert cli(["export", str(game), "--format", "html", "-o", str(out)]) == 0
    log = read_log(game)
    end = log.timeline.end
    assert end > 123
    url = out.resolve().as_uri()

    async def go():
        at_0 = await viewer_screen(log, 0, SIZE)
        at_123 = await viewer_screen(log, 123, SIZE)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = await browser.new_page(viewport={"width": 1400, "height": 1000})
                requests: list[str] = []
                dialogs: list[str] = []
                page.on("request", lambda r: requests.append(r.url))
                page.on("dialog", lambda d: dialogs.append(d.message))
                await page.goto(url)
                text, index = await shown(page)
                assert index == 0 and page.url.endswith("#m0")
                same_position(text, at_0, 0, end)
                assert all(name in text for name in NAMES[:3])  # as text, never a tag
                await page.goto(url + "#m123")
                await page.reload()  # (a fragment alone does not load the page again)
                text, index = await shown(page)
                assert index == 123
                same_position(text, at_123, 123, end)
                await page.keyboard.press("ArrowRight")
                assert page.url.endswith("#m124") and (await shown(page))[1] == 124
                await page.keyboard.press("End")
                assert page.url.endswith(f"#m{end}")
                await page.keyboard.press("Home")
                assert page.url.endswith("#m0")
                await page.keyboard.press("]")  # a round on, as the viewer's key
                assert (await shown(page))[1] == log.timeline.next("round", 0)
                assert await page.evaluate("document.scripts.length") == 2
                assert not dialogs
                assert requests and all(r.startswith(url) for r in requests), requests  # the file, nothing else
            finally:
                await browser.close()

    asyncio.run(asyncio.wait_for(go(), 120))
