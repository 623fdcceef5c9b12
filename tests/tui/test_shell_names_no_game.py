"""The shell names no game: outside each game's client part (``tui/games/<game>/``), no module of
the client compares against a game's name, keys a dict by one, or imports a particular game's
package (its rules, ``colosseum.core.games.<game>``, or its client part).  The program's name,
"colosseum", in command lines, folders, themes and text is not a game's name and is left alone.

The import-linter contract "The shell names no game" (pyproject.toml) checks the imports too,
chains included; this test reads the source itself (a comparison is not an import)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"
GAMES = {"colosseum", "municipium"}
#: the SSH host's modules and the remote sessions: the host helper's, made generic with the one
#: wire (issue 25's server half).  This list may only shrink.
KNOWN: tuple[str, ...] = ()


def _names_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.casefold() in GAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(x) for x in node.elts)
    return False


def _imports_a_game(module: str) -> bool:
    parts = module.split(".")
    if "games" in parts:
        i = parts.index("games")
        return i + 1 < len(parts) and parts[i + 1] in GAMES or module.endswith("games")
    return False


def problems(source: str, where: str = "<source>") -> list[str]:
    """Where ``source`` names a game: in a comparison, a match case, a dict key, a subscript,
    an import, or an import path given as text."""
    out = []
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare) and any(_names_a_game(x) for x in [node.left, *node.comparators]):
            out.append(f"{line}: compares against a game's name")
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            out.append(f"{line}: matches a game's name")
        elif isinstance(node, ast.Dict) and any(k is not None and _names_a_game(k) for k in node.keys):
            out.append(f"{line}: a dict keyed by a game's name")
        elif isinstance(node, ast.Subscript) and _names_a_game(node.slice):
            out.append(f"{line}: looks a game's name up")
        elif isinstance(node, ast.Import) and any(_imports_a_game(a.name) for a in node.names):
            out.append(f"{line}: imports a game")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if _imports_a_game(module) or (node.level and module.split(".")[0] == "games"):
                out.append(f"{line}: imports a game")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and ":" in node.value:
            path = node.value.split(":")[0]
            if " " not in path and _imports_a_game(path):
                out.append(f"{line}: names a game's module path")
    return out


def shell_modules() -> list[Path]:
    out = []
    for path in sorted(TUI.rglob("*.py")):
        rel = path.relative_to(TUI).as_posix()
        if rel.startswith("games/") or any(rel.startswith(k) for k in KNOWN):
            continue
        out.append(path)
    return out


def test_the_shell_names_no_game() -> None:
    found = []
    for path in shell_modules():
        found += problems(path.read_text(encoding="utf-8"), path.relative_to(TUI).as_posix())
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_looks_for() -> None:
    """Each way of naming a game is caught; the program's name in text and paths is not."""
    caught = {
        'if game == "municipium": pass': "compares",
        'x = game in ("colosseum", "nim")': "compares",
        'match g:\n    case "municipium": pass': "matches",
        'ROWS = {"colosseum": 1}': "dict",
        'y = rows["municipium"]': "looks",
        "import colosseum.core.games.municipium": "imports",
        "from colosseum.core.games.colosseum import State": "imports",
        "from colosseum.tui.games.colosseum.board import BoardPanel": "imports",
        "from .games.municipium import CLIENT": "imports",
        'PATH = "colosseum.tui.games.municipium:CLIENT"': "module path",
    }
    for source, what in caught.items():
        found = problems(source)
        assert found and what in found[0], (source, found)
    fine = [
        'print("colosseum: game saved")',
        'folder = user_data_dir("colosseum")',
        'ok = theme.startswith("colosseum")',
        "from colosseum.tui.session import LocalSession",
        "from colosseum.core.registry import spec",
        'PLAIN = "colosseum.tui.screens.plaingame:CLIENT"',
    ]
    for source in fine:
        assert not problems(source), source


def test_the_known_list_holds_only_what_is_still_there() -> None:
    """An entry of KNOWN that no longer exists must go (the list only shrinks)."""
    for entry in KNOWN:
        assert (TUI / entry).exists(), f"{entry} is gone: remove it from KNOWN"
