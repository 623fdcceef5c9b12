import sys

from colosseum.tui.cli import main

sys.exit(main())
