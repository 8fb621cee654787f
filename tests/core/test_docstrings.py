"""The worked examples in the package's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bytepair

#: every public module of the package, in its sub-packages too (``bytepair.teach.explain``'s
#: examples went unchecked while only the top level was listed)
MODULES = sorted(
    ["bytepair"]
    + [
        m.name
        for m in pkgutil.walk_packages(bytepair.__path__, "bytepair.")
        if not any(part.startswith("_") for part in m.name.split("."))
    ]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:  # an optional dependency (the notebook extra) not installed here
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (output above)"


def test_some_examples_exist():
    finder = doctest.DocTestFinder()
    n = sum(len(t.examples) for name in MODULES for t in finder.find(importlib.import_module(name)))
    assert n >= 5
