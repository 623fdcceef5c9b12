"""A light theme on a terminal of 16 colours (``TERM=xterm``): its browns all became colour 3,
yellow, drawn at a contrast of 1.5 to 2 on white by most terminals (titles, borders, keys, the
second seat), and disabled text light grey (7).  There the light theme takes colours of the 16
themselves; truecolour and 256-colour terminals keep the theme as designed."""

from __future__ import annotations

import asyncio

import pytest
from rich.color import Color, ColorSystem

import colosseum.themes as themes
from colosseum.themes import THEME_NAMES, seat_colour, theme_spec

UNREADABLE_ON_WHITE = {3, 7, 11, 14, 15}  # yellow, light grey, bright yellow, bright cyan, white


def _16(colour: str) -> int:
    return Color.parse(colour).downgrade(ColorSystem.STANDARD).number


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_in_16_colours_every_text_colour_reads_on_the_background(theme):
    spec = theme_spec(theme, "standard")
    seats = [_16(c) for c in spec["seats"]]
    assert len(set(seats)) == 5, seats
    if spec["dark"]:
        return
    assert _16(spec["background"]) == 15
    texts = {k: _16(spec[k]) for k in ("primary", "secondary", "accent", "warning", "error", "success", "foreground")}
    texts.update({k: _16(v) for k, v in spec.get("variables", {}).items()})
    bad = {
        k: n for k, n in {**texts, **{f"seat {i}": n for i, n in enumerate(seats)}}.items() if n in UNREADABLE_ON_WHITE
    }
    assert not bad, bad


def test_truecolour_keeps_the_designed_colours():
    assert theme_spec("colosseum-light", "truecolor")["primary"] == "#8a5a12"
    assert theme_spec("colosseum-light", "256")["seats"][1] == "#8a6d00"
    assert theme_spec("colosseum-dark", "standard") == theme_spec("colosseum-dark", "truecolor")


@pytest.mark.parametrize(("system", "want"), [("standard", "#0000aa"), ("truecolor", "#8a5a12")])
def test_the_app_takes_its_terminals_colours(monkeypatch, system, want):
    """The app registers the themes for its console's colour system; the seat colours the
    widgets draw with (``seat_colour``) follow it."""
    from textual.app import App

    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", system)
    monkeypatch.setattr("textual.constants.COLOR_SYSTEM", system)
    monkeypatch.setattr(themes, "_colour_system", None)

    class Probe(App[None]):
        def on_mount(self) -> None:
            themes.register_themes(self)
            self.theme = "colosseum-light"

    app = Probe()

    async def go():
        async with app.run_test() as pilot:
            await pilot.pause()
            return app.get_css_variables()["primary"]

    primary = asyncio.run(go())
    got, wanted = Color.parse(primary).triplet, Color.parse(want).triplet
    assert max(abs(a - b) for a, b in zip(got, wanted, strict=True)) <= 2, (got, wanted)  # (Textual rounds)
    assert seat_colour("colosseum-light", 1) == ("#0000aa" if system == "standard" else "#8a6d00")
