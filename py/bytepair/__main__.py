"""``python -m bytepair`` and the ``bytepair`` console script: the command line in :mod:`bytepair._cli`."""

from __future__ import annotations

import sys


def run() -> None:
    """Run the command line; a clear message (exit status 2) when the ``cli`` extra is missing."""
    try:
        from ._cli import main
    except ImportError as e:
        if getattr(e, "name", None) in ("click", "rich") or "click" in str(e) or "rich" in str(e):
            sys.stderr.write(
                f"bytepair's command line needs the optional packages click and rich ({e}).\n"
                'Install them with: pip install "bytepair[cli]"\n'
            )
            sys.exit(2)
        raise
    main(prog_name="bytepair")


if __name__ == "__main__":
    run()
