"""The optional mypyc build (``COLOSSEUM_COMPILE=1``, setup.py's COMPILED) stays buildable in
kind: a class compiled by mypyc cannot derive from an interpreted class of the project, nor be
derived from by one (mypyc refuses the first at run time: "GreedyValuation object expected;
got GreedyBot").  When a module was split, its new parts had to join the list; this says so
without building anything."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> set[str]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in targets):
                assert node.value is not None
                paths = ast.literal_eval(node.value)
                return {"colosseum.core." + p.removesuffix(".py").replace("/", ".") for p in paths}
    raise AssertionError("setup.py has no COMPILED list")


def test_compiled_modules_exist() -> None:
    for name in compiled_modules():
        importlib.import_module(name)


def test_compiled_classes_derive_only_from_compiled_ones() -> None:
    compiled = compiled_modules()
    wrong = []
    for name in sorted(compiled):
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != name:
                continue
            for base in cls.__mro__[1:]:
                home = base.__module__
                if home.startswith("colosseum.") and home not in compiled:
                    wrong.append(f"{name}.{cls.__name__} derives from {home}.{base.__name__}")
    assert not wrong, "add these modules to setup.py's COMPILED: " + "; ".join(wrong)


def test_no_interpreted_class_derives_from_a_compiled_one() -> None:
    compiled = compiled_modules()
    packages = {name.rsplit(".", 1)[0] for name in compiled}
    wrong = []
    for package in sorted(packages):
        folder = ROOT / "core" / Path(*package.split(".")[2:])
        for path in sorted(folder.glob("*.py")):
            name = f"{package}.{path.stem}" if path.stem != "__init__" else package
            if name in compiled:
                continue
            module = importlib.import_module(name)
            for cls in vars(module).values():
                if not inspect.isclass(cls) or cls.__module__ != name:
                    continue
                for base in cls.__mro__[1:]:
                    if base.__module__ in compiled:
                        wrong.append(f"{name}.{cls.__name__} derives from {base.__module__}.{base.__name__}")
    assert not wrong, "compiled classes derived from by interpreted ones: " + "; ".join(wrong)


def test_every_policy_bot_forks_and_its_twin_chooses_alike() -> None:
    """The search twins its policy bot (``twin_of``) with ``fork()``: without it, it copies the
    bot's ``vars()``, which a compiled class has none of (Municipium's hint failed so)."""
    from colosseum.core.registry import game_names, rules
    from colosseum.core.search import twin_of
    from colosseum.core.simulate import make_bots, make_setup

    for game in game_names():
        r = rules(game)
        bot = r.make_bot("normal", 7)
        assert callable(getattr(bot, "fork", None)), f"{game}'s normal bot has no fork()"
        n = r.spec.default_players
        state = r.new_game(make_setup(n, 3, game=game))
        others = make_bots(["normal"] * n, 3, game=game)
        for _ in range(40):
            if r.to_act(state) < 0:
                break
            twin = twin_of(bot)
            mine = twin.act(state)
            assert bot.act(state) == mine  # the twin chose as the bot does, the bot untouched
            state = r.apply(state, others[r.to_act(state)].act(state))[0]
