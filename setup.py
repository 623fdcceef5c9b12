"""Package layout: the top-level folders core/, tui/ and themes/ install as colosseum.core,
colosseum.tui and colosseum.themes (colosseum_pkg/ is the colosseum package itself).
Sub-packages are found by walking the folders, so a new one needs no entry here."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
MAP = {"colosseum": "colosseum_pkg", "colosseum.core": "core", "colosseum.tui": "tui", "colosseum.themes": "themes"}

package_dir = {}
packages = []
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

setup(
    package_dir=package_dir,
    packages=packages,
    package_data={
        "colosseum.core.games.colosseum": ["data/*.toml", "data/*.json"],
        "colosseum.core.games.municipium": ["data/*.toml"],
        "colosseum.tui": ["*.tcss", "**/*.tcss"],
        "colosseum.themes": ["*.tcss"],
        "colosseum.tui.net.host.store.migrations": ["*.mako"],
    },
)
