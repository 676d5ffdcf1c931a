"""What Goes Up: start the desktop game, or run a command (``python main.py --help``)."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    """Console-script entry point (``whatgoesup``); returns the exit status."""
    from game.cli import main as cli_main
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
