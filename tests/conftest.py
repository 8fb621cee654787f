"""Shared pytest setup: make the repository root (for ``tools``, ``tests``) and
``py/`` (for ``bytepair``, without installing it) importable."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (ROOT / "py", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
