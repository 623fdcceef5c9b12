"""No import circles anywhere in the program: module A importing B (directly or not) while B
imports A makes both one room that cannot be understood, tested or loaded apart.

Every import counts, also one inside a function or under ``TYPE_CHECKING`` (grimp reads them
all): a lazy import hides a circle from the interpreter, not from a reader."""

from __future__ import annotations

import grimp

#: circles that are being taken apart (the restructure of the client and the SSH host); each
#: entry is the set of modules of one circle.  Nothing may be added here.
KNOWN: list[frozenset[str]] = []


def circles() -> list[list[str]]:
    """Each import that closes a circle, as the chain from the imported module back to the
    importer (the circle is that chain plus the import)."""
    # imports for type checking only are no dependency at run time (the game interface names the
    # search's types, the search calls the interface)
    graph = grimp.build_graph("colosseum", cache_dir=None, exclude_type_checking_imports=True)
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported == importer:
                continue
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                found.append(list(back))
    return found


def test_no_import_circles():
    unknown = []
    for chain in circles():
        if not any(set(chain) <= known for known in KNOWN):
            unknown.append(" -> ".join(chain))
    assert not unknown, "import circles:\n" + "\n".join(sorted(set(unknown)))


def test_the_check_finds_a_circle(tmp_path, monkeypatch):
    pkg = tmp_path / "circ"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from circ import b\n")
    (pkg / "b.py").write_text("def f():\n    from circ import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("circ", cache_dir=None)
    assert graph.find_shortest_chain(importer="circ.b", imported="circ.a") == ("circ.b", "circ.a")
    assert graph.find_shortest_chain(importer="circ.a", imported="circ.b") == ("circ.a", "circ.b")
