"""User text is never markup: the client's code cannot show a string as markup.

Textual reads a ``str`` as markup in ``Static``, ``Label``, ``OptionList`` (ruff's banned-api
rule sends the client to ``colosseum.tui.plain``), in notifications (``BaseApp.notify`` turns
it off for every app) and in border titles (checked here: set from a literal, or from ``Text``).
The games played with hostile names (``test_hostile_names.py``) check what reaches the screen.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import colosseum.tui as tui_pkg
from colosseum.tui.base import BaseApp
from colosseum.tui.plain import Label, OptionList, Static

TUI = Path(tui_pkg.__file__).parent
HOSTILE = "[/a] [bold]Kat[/] [red]x"


def _sources():
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "plain.py":  # where the widgets take their markup=False
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _annotations(func: ast.AST) -> dict[str, str]:
    """The annotation of each parameter and annotated local of ``func``, as source text."""
    out: dict[str, str] = {}
    if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
        for arg in (*func.args.args, *func.args.kwonlyargs, *func.args.posonlyargs):
            if arg.annotation is not None:
                out[arg.arg] = ast.unparse(arg.annotation)
    for node in ast.walk(func):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = ast.unparse(node.annotation)
    return out


def _is_plain(value: ast.expr, annotations: dict[str, str]) -> bool:
    if isinstance(value, ast.Constant):
        return True  # our own literal words (or None)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "Text":
        return True
    if isinstance(value, ast.IfExp):
        return _is_plain(value.body, annotations) and _is_plain(value.orelse, annotations)
    if isinstance(value, ast.Name):
        return "Text" in annotations.get(value.id, "")
    return False


def test_no_code_in_the_client_turns_markup_on():
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "markup":
                if not (isinstance(node.value, ast.Constant) and node.value.value is False):
                    found.append(f"{path.relative_to(TUI)}:{node.value.lineno}")
    assert not found, f"markup turned on (or not plainly off) at {found}"


def _assignments(tree: ast.AST):
    """Each assignment with the annotations of the function it is in (the innermost one)."""

    def visit(node: ast.AST, notes: dict[str, str]):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from visit(child, _annotations(child))
            else:
                if isinstance(child, ast.Assign):
                    yield child, notes
                yield from visit(child, notes)

    yield from visit(tree, {})


def test_border_titles_are_literals_or_text():
    found = []
    for path, tree in _sources():
        for node, notes in _assignments(tree):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in ("border_title", "border_subtitle"):
                    if not _is_plain(node.value, notes):
                        found.append(f"{path.relative_to(TUI)}:{node.lineno}: {ast.unparse(node.value)}")
    assert not found, "border titles read a str as markup; give them Text: " + "; ".join(found)


def test_the_checks_above_catch_what_they_look_for():
    code = (
        "def f(w, name):\n    w.border_title = name\n    w.border_title = f'{name}'\n    w.notify(name, markup=True)\n"
    )
    tree = ast.parse(code)
    func = tree.body[0]
    notes = _annotations(func)
    assigns = [n for n in ast.walk(func) if isinstance(n, ast.Assign)]
    assert [_is_plain(a.value, notes) for a in assigns] == [False, False]
    ok = ast.parse("def g(w, t: Text | None):\n    w.border_title = t\n    w.border_title = Text(x)\n").body[0]
    assert all(_is_plain(a.value, _annotations(ok)) for a in ast.walk(ok) if isinstance(a, ast.Assign))


def test_hostile_text_shows_as_it_is_in_every_plain_widget_and_notification():
    class Probe(BaseApp):
        def compose(self):
            yield Static(HOSTILE, id="s")
            yield Label(HOSTILE, id="l")
            yield OptionList(HOSTILE, id="o")

    async def go():
        app = Probe()
        async with app.run_test(size=(80, 24)) as pilot:
            app.query_one("#s", Static).update(HOSTILE)
            app.notify(HOSTILE, title=HOSTILE + " 1")
            app.query_one("#s").notify(HOSTILE + " 2")  # a widget's notify asks for markup by default
            await pilot.pause(0.3)
            lines = ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]
            screen = "\n".join(lines)
            assert screen.count(HOSTILE) >= 3, screen  # the three widgets
            notes = list(app._notifications)
            assert len(notes) == 2 and not any(n.markup for n in notes)
            assert all(n.message.startswith(HOSTILE) and n.title.startswith(HOSTILE) for n in notes if n.title)

    asyncio.run(go())


def test_the_command_palette_shows_player_names_as_typed():
    """Issue 24: a player named ``[bold red]x`` was red in everyone's Ctrl+P "View board of x"
    (Textual reads a command's words, and its matcher's highlight, as markup)."""
    from dialog_harness import make_session, settle
    from textual.command import CommandPalette
    from textual.widgets import OptionList as TextualOptionList  # noqa: TID251 - read, not made

    from colosseum.core.games.colosseum import GameSetup
    from colosseum.tui.app import ColosseumApp

    async def go():
        session = make_session(GameSetup(players=("[bold red]x", "[/a]", "Kat"), seed=3), [])
        app = ColosseumApp(session, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for query in ("", "view"):
                await pilot.press("ctrl+p")
                await settle(pilot)
                assert isinstance(app.screen, CommandPalette)
                for ch in query:
                    await pilot.press(ch)
                for _ in range(20):
                    await pilot.pause(0.05)
                options = app.screen.query_one(TextualOptionList)
                shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
                texts = " | ".join(shown)
                assert "View board of [bold red]x" in texts and "View board of [/a]" in texts, texts
                await pilot.press("escape")
                await settle(pilot)

    asyncio.run(go())
