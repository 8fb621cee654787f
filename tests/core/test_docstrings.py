"""The worked examples in the package's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bytepair

MODULES = sorted(
    ["bytepair"] + [f"bytepair.{m.name}" for m in pkgutil.iter_modules(bytepair.__path__) if not m.name.startswith("_")]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (output above)"


def test_some_examples_exist():
    finder = doctest.DocTestFinder()
    n = sum(len(t.examples) for name in MODULES for t in finder.find(importlib.import_module(name)))
    assert n >= 5
