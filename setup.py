"""Package layout: the top-level folders core/, tui/ and themes/ install as colosseum.core,
colosseum.tui and colosseum.themes (colosseum_pkg/ is the colosseum package itself).
Sub-packages are found by walking the folders, so a new one needs no entry here; so are the
data folders (no ``__init__.py``: each game's ``data/``), which install as packages of their own
with their JSON and TOML files (setuptools warns about data in a folder not listed as a package, and
says it will leave such data out).

``COLOSSEUM_COMPILE=1`` (with mypy installed and ``--no-build-isolation``) also compiles the
bots' playout path with mypyc (the modules in COMPILED): the same code, the same choices,
faster.  Without it (README's commands) everything is pure Python, as everywhere the compiled
modules are absent: Python imports a module's ``.py`` when it finds no compiled one."""

import os
import shutil
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
MAP = {"colosseum": "colosseum_pkg", "colosseum.core": "core", "colosseum.tui": "tui", "colosseum.themes": "themes"}

package_dir = {}
packages = []
package_data = {
    "colosseum.tui": ["*.tcss", "**/*.tcss"],
    "colosseum.themes": ["*.tcss"],
    "colosseum.tui.net.host.store.migrations": ["*.mako"],
}
for name, folder in MAP.items():
    package_dir[name] = folder
    packages.append(name)
    if name == "colosseum":
        continue
    for init in sorted((ROOT / folder).rglob("__init__.py")):
        rel = init.parent.relative_to(ROOT / folder)
        if rel.parts:
            sub = ".".join((name, *rel.parts))
            package_dir[sub] = str(Path(folder, *rel.parts))
            packages.append(sub)
    for data in sorted((ROOT / folder).rglob("data")):
        rel = data.relative_to(ROOT / folder)
        if data.is_dir() and not (data / "__init__.py").exists():
            sub = ".".join((name, *rel.parts))
            package_dir[sub] = str(Path(folder, *rel.parts))
            packages.append(sub)
            package_data[sub] = ["*.json", "*.toml"]

#: compiled with mypyc when COLOSSEUM_COMPILE=1 (paths below core/): the greedy bot, which plays
#: every seat of every playout, and the rules it asks
COMPILED = [
    "games/colosseum/bots/greedy_nobles.py",
    "games/colosseum/bots/greedy_tiles.py",
    "games/colosseum/bots/greedy_value.py",
    "games/colosseum/bots/greedy_deals.py",
    "games/colosseum/bots/greedy.py",
    "games/colosseum/bots/random_bot.py",
    "games/colosseum/queries.py",
    "games/colosseum/offers.py",
    "games/colosseum/context.py",
    "games/colosseum/engine.py",
    "games/colosseum/phases/setup.py",
    "games/colosseum/phases/invest.py",
    "games/colosseum/phases/hire.py",
    "games/colosseum/phases/trade.py",
    "games/colosseum/phases/perform.py",
    "games/colosseum/phases/closing.py",
    "games/municipium/bots/greedy.py",
]


def compiled_extensions() -> list:
    """The mypyc extensions of COMPILED, from a copy of the package laid out as it installs
    (``colosseum/core/...``), so that the modules get their installed names."""
    if os.environ.get("COLOSSEUM_COMPILE") != "1":
        return []
    from mypyc.build import mypycify  # only with COLOSSEUM_COMPILE=1: mypy must be installed

    stage = ROOT / "build" / "mypyc-src"
    if stage.exists():
        shutil.rmtree(stage)
    for name, folder in MAP.items():
        target = stage.joinpath(*name.split("."))
        shutil.copytree(ROOT / folder, target, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    paths = [str(stage / "colosseum" / "core" / rel) for rel in COMPILED]
    return mypycify(paths, opt_level="3", target_dir=str(ROOT / "build" / "mypyc-c"))


setup(
    ext_modules=compiled_extensions(),
    package_dir=package_dir,
    packages=packages,
    package_data=package_data,
)
