"""The rules screen (r) speaks the edition and options in play (issue 23): each edition of
Colosseum and Municipium has its own rules in short, shipped in the game's package as data, each
section naming rule ids that docs/rules.md defines."""

from __future__ import annotations

import asyncio
import fnmatch
import re
import runpy
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from app_positions import human_session

from colosseum.core.registry import spec
from colosseum.tui.app import ColosseumApp
from colosseum.tui.client import load_client

ROOT = Path(__file__).resolve().parents[2]
COLOSSEUM = load_client(spec("colosseum"))
MUNICIPIUM = load_client(spec("municipium"))


def text_of(variant: str = "grand", options: tuple[str, ...] = ()) -> str:
    setup = spec("colosseum").make_setup(["A", "B", "C"], seed=1, variant=variant, options=options)
    return COLOSSEUM.rules_text(setup).plain


def muni_text(options: tuple[str, ...] = ()) -> str:
    return MUNICIPIUM.rules_text(spec("municipium").make_setup(["A", "B", "C"], seed=1, options=options)).plain


def test_each_edition_says_its_own_investments():
    assert "Up to two investments, of different kinds" in text_of("grand")
    classic = text_of("classic")
    assert "One investment a turn" in classic and "two investments" not in classic
    assert "2 Aquilas or a construction tile" in classic
    original = text_of("original")
    assert "plus one extra (of any kind) for 2 medals" in original
    assert "Numbering rule" in original


def test_the_2007_auctions_option_changes_the_hire_section_where_it_applies():
    for variant in ("grand", "classic"):
        plain, with_option = text_of(variant), text_of(variant, ("auction-2007",))
        assert "A07-1" not in plain and "A07-1" in with_option
        assert "at most one lot a phase" in with_option and "with the 2007 auctions" in with_option
    # always played in the original edition (O-17): nothing added there
    assert text_of("original", ("auction-2007",)) == text_of("original")


def test_the_original_edition_uses_its_own_words():
    original = text_of("original")
    for word in ("Aquila", "gate", "Acclaim", "Temple", "promoter", "gift", "spectacle", "Star Performer", "G-"):
        assert word not in original, word
    for word in ("medal", "arena", "spectators", "season ticket", "loge", "podium", "program", "Star card"):
        assert word in original, word


def test_classic_and_grand_differ_where_the_rules_do():
    grand, classic = text_of("grand"), text_of("classic")
    assert "4 rounds" in grand and "5 rounds" in classic
    assert "Each Aquila left adds 3 Acclaim" in grand and "Aquilas left are worth nothing" in classic
    assert "Roll two dice" in grand and "Roll one die" in classic


def test_municipium_options():
    assert "someone has 5 decurions" in muni_text()
    assert "someone has 4 decurions" in muni_text(("short",))
    assert "only chamber citizen" in muni_text(("single-chamber",))


def test_every_rule_id_cited_is_defined_in_the_rules():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") + (ROOT / "docs" / "decisions.md").read_text(
        encoding="utf-8"
    )
    texts = [text_of(v, o) for v in ("grand", "classic", "original") for o in ((), ("auction-2007",))]
    texts += [muni_text(o) for o in ((), ("short",), ("single-chamber",))]
    cited = {i for t in texts for i in re.findall(r"\b[GCOMD]-\d+(?:\.\d+)?\b|\bA07-\d+\b", t)}
    assert len(cited) > 40
    for rule in sorted(cited):
        assert re.search(rf"(\*\*|#+ |\| ){re.escape(rule)}\b", rules), rule


def _layout(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What setup.py hands setuptools (its ``setup`` call captured, nothing built)."""
    import setuptools

    seen: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.delenv("COLOSSEUM_COMPILE", raising=False)
    runpy.run_path(str(ROOT / "setup.py"))
    return seen


def test_every_data_file_ships_in_its_own_package(monkeypatch):
    """Each file beside the code that is not Python is listed as package data of the package
    whose folder holds it (setuptools leaves out data in a folder it was not told is a package),
    and the rules texts the clients load are among them."""
    layout = _layout(monkeypatch)
    folders = {Path(folder).resolve(): name for name, folder in layout["package_dir"].items()}
    assert set(folders.values()) == set(layout["packages"])
    missing = []
    for top in ("core", "tui", "themes", "colosseum_pkg"):
        for f in sorted((ROOT / top).rglob("*")):
            if not f.is_file() or f.suffix in (".py", ".pyc", ".so") or "__pycache__" in f.parts:
                continue
            if f.name == "py.typed" or f.suffix == ".md":  # (py.typed: setuptools; .md: notes for developers)
                continue
            owner = f.parent
            while owner.resolve() not in folders:
                owner = owner.parent
            rel = f.relative_to(owner).as_posix()
            patterns = layout["package_data"].get(folders[owner.resolve()], [])
            if not any(fnmatch.fnmatch(rel, pat) or PurePosixPath(rel).match(pat) for pat in patterns):
                missing.append(str(f.relative_to(ROOT)))
    assert not missing, missing
    for client in (COLOSSEUM, MUNICIPIUM):
        assert client.rules_resource is not None
        package, resource = client.rules_resource
        folder, name = resource.split("/")
        assert name.endswith(".toml") and f"{package}.{folder}" in layout["packages"]
    assert "RULES.md" not in text_of() and "RULES.md" not in muni_text()


@pytest.mark.parametrize("variant", ["classic", "original"])
def test_r_on_the_game_screen_shows_the_edition_in_play(variant):
    session = human_session([], n=3, variant=variant)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            assert type(app.screen).__name__ == "RulesScreen"
            shown = str(app.screen.query_one("#rules-body").children[0].render())
            assert shown == text_of(variant)

    asyncio.run(go())


def test_rules_from_the_new_game_screen_follow_the_form():
    from colosseum.tui.widgets.forms import Cycle

    app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            scr.query_one("#ng-opt-variant", Cycle).value = "classic"
            scr.query_one("#ng-opt-options-auction-2007").value = True
            await pilot.pause()
            app.action_rules()
            await pilot.pause()
            assert type(app.screen).__name__ == "RulesScreen"
            shown = str(app.screen.query_one("#rules-body").children[0].render())
            assert shown == text_of("classic", ("auction-2007",))

    asyncio.run(go())
