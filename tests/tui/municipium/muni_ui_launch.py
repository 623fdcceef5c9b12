"""Start a Municipium game in the terminal for trying it by hand (tui-drive):
``python tests/tui/municipium/muni_ui_launch.py [humans] [seed] [names,comma,separated]``
(the same as ``colosseum play --game municipium ...``)."""

from __future__ import annotations

import sys

from colosseum.tui.cli import main

if __name__ == "__main__":
    humans = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else ["Becky", "Kat", "Laura"]
    sys.exit(
        main(
            ["play", "--game", "municipium", "--players", str(len(names)), "--humans", str(humans)]
            + ["--seed", str(seed), "--names", ",".join(names), "--bots", "normal", "--bot-delay", "0.2"]
        )
    )
