"""The package's structure, read from its source with ``ast`` (nothing is imported).

- No import circle in ``py/bytepair``: every import counts (module level and inside functions,
  which run later but still tie the two modules together), except ``if TYPE_CHECKING:`` blocks.
- No module reads an underscore attribute of another module's objects: ``x._name`` is allowed
  where ``x`` is ``self``/``cls``, or where ``_name`` is an attribute that a class defined in the
  same module sets or defines (``tok._unk`` inside ``hf/tokenizer.py``, on another
  ``HFTokenizer``). Everything else goes through the classes' public stage interfaces.
- Nor do the tests (``tests/``): no read of an underscore name bytepair defines (a class's
  attribute or method, or a module's name), except the few in :data:`ALLOWED_TEST_READS`, each
  with its reason. A test that must watch something lazy uses a public observer
  (``HFTokenizer.tables_loaded``, ``Blocks.kept_blocks``).
- ``isinstance`` on the tokenizer classes appears only in ``protocol.py``.
- The sub-packages are layers (:data:`LAYERS`, drawn in docs/ARCHITECTURE.md "The map"): a module
  imports only from its own layer or the layers below it, so there is no circle between
  sub-packages either, and every module of the package has its place in the list.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

#: The package's source in this checkout (the wheel is built from it; in Pyodide the installed
#: copy may hold compiled files only).
PKG = Path(__file__).resolve().parents[2] / "py" / "bytepair"
MODULES = {
    ".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__"): p
    for p in sorted(PKG.rglob("*.py"))
}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}

#: Deliberate reads of another module's underscore names, each with its reason.
ALLOWED_PRIVATE_READS: dict[tuple[str, str], str] = {}

#: The tests' own source (every ``.py`` under ``tests/``), by path relative to ``tests/``.
TESTS = Path(__file__).resolve().parents[1]
TEST_TREES = {
    p.relative_to(TESTS).as_posix(): ast.parse(p.read_text(encoding="utf-8"), str(p))
    for p in sorted(TESTS.rglob("*.py"))
}

#: Deliberate reads in ``tests/`` of underscore names bytepair defines: by test file, the names and
#: the reason. Nothing else; a new read needs a public name or an entry here.
ALLOWED_TEST_READS: dict[str, tuple[frozenset[str], str]] = {
    "core/test_tiktoken_compat.py": (
        frozenset(
            {
                "_pat_str",
                "_mergeable_ranks",
                "_special_tokens",
                "_encode_bytes",
                "_encode_single_piece",
                "_encode_only_native_bpe",
            }
        ),
        "tiktoken's own Encoding API: the drop-in (bytepair.tiktoken) keeps these names because callers "
        "of tiktoken use them; the test compares them with tiktoken's",
    ),
    "core/test_train_interrupt.py": (
        frozenset({"_train"}),
        "raises KeyboardInterrupt at each line of the training loop (as Pyodide's interrupt does): "
        "needs that function's code object and source lines",
    ),
    "core/test_hybrid_split.py": (
        frozenset({"_HybridSplit", "_StdlibSplit", "_pick", "_full"}),
        "white-box test of the auto back-end's private dispatcher: which engine runs a text and whether "
        "the full translation compiled show in no result (every engine gives the same pieces)",
    ),
    "core/test_patterns.py": (
        frozenset({"_regex_is_verified", "_class_ranges"}),
        "the regex release check re-run under a fake regex (BACKEND is fixed at import) and the "
        "generated class tables read by class name: neither has a public form",
    ),
}

TOKENIZER_CLASSES = {"Tokenizer", "HFTokenizer", "TekkenTokenizer"}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk_runtime(tree: ast.AST):
    """``ast.walk`` without the bodies of ``if TYPE_CHECKING:`` blocks."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _imports(name: str, tree: ast.AST) -> set[str]:
    """The bytepair modules that module ``name`` imports (at any depth, outside TYPE_CHECKING)."""
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            if mod in MODULES:
                out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in MODULES}
    out.discard(name)
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_source_is_read():
    assert "bytepair.tokenizer" in TREES and "bytepair.protocol" in TREES


def test_no_import_circle():
    graph = {name: _imports(name, tree) for name, tree in TREES.items()}
    # the package's own __init__ imports everything; circles through it are not layering faults
    for deps in graph.values():
        deps.discard("bytepair")
    assert _circles(graph) == []


def _own_private_names(tree: ast.AST) -> set[str]:
    """Underscore names a class of this module defines: methods, class attributes, ``self._x = ...``."""
    names: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        names.add(t.id)
                    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                        names.add(t.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # __slots__ entries
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _is_private(name: str) -> bool:
    """An underscore name: ``_x``, not ``__x__`` nor a ``_x_`` protocol hook (IPython's
    ``_repr_html_``, which Jupyter calls)."""
    return name.startswith("_") and not name.startswith("__") and not name.endswith("_")


def _private_reads(name: str, tree: ast.AST) -> list[str]:
    own = _own_private_names(tree)
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if node.attr in own or (name, node.attr) in ALLOWED_PRIVATE_READS:
            continue
        bad.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return bad


def test_private_read_finder_flags_a_foreign_read():
    tree = ast.parse("class A:\n    def f(self, o):\n        return o._mine, o._theirs, self._x\n    _mine = 1\n")
    assert _private_reads("m", tree) == ["m:3: o._theirs"]


def test_no_module_reads_another_modules_underscore_attributes():
    bad = [line for name, tree in TREES.items() for line in _private_reads(name, tree)]
    assert bad == []


def _bytepair_private_names() -> set[str]:
    """Every underscore name bytepair defines: in its classes (:func:`_own_private_names`) and at
    the top of its modules (functions, classes, assignments, imports ``as _x``)."""
    names: set[str] = set()
    for tree in TREES.values():
        names |= _own_private_names(tree)
        for node in ast.iter_child_nodes(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names |= {a.asname or a.name for a in node.names}
    return {n for n in names if _is_private(n)}


def _test_private_reads(path: str, tree: ast.AST, theirs: set[str]) -> list[str]:
    """Reads of ``theirs`` (bytepair's underscore names) in one test file, but on ``self``/``cls``,
    of names the file's own classes define, and of those :data:`ALLOWED_TEST_READS` lets it read."""
    allowed = _own_private_names(tree) | ALLOWED_TEST_READS.get(path, (frozenset(), ""))[0]
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr in theirs and node.attr not in allowed):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        bad.append(f"tests/{path}:{node.lineno}: {ast.unparse(node)}")
    return bad


def test_test_read_finder_flags_a_read_of_bytepairs_private_names():
    tree = ast.parse(
        "class Fake:\n    _d = 1\n\ndef test(tok, fake, ref):\n    return tok._lazy, fake._d, ref._other, tok.x\n"
    )
    assert _test_private_reads("core/test_x.py", tree, {"_lazy", "_d"}) == ["tests/core/test_x.py:5: tok._lazy"]
    assert "_lazy" in _bytepair_private_names() and "_repr_html_" not in _bytepair_private_names()


def test_tests_read_no_underscore_attribute_of_bytepair():
    theirs = _bytepair_private_names()
    bad = [line for path, tree in TEST_TREES.items() for line in _test_private_reads(path, tree, theirs)]
    assert bad == []
    # every entry of the allow-list is still needed: its file reads each of its names
    for path, (names, reason) in ALLOWED_TEST_READS.items():
        assert reason and path in TEST_TREES, path
        read = {n.attr for n in ast.walk(TEST_TREES[path]) if isinstance(n, ast.Attribute)}
        assert names <= read, (path, sorted(names - read))


def test_isinstance_on_tokenizer_classes_only_in_the_protocol():
    bad = []
    for name, tree in TREES.items():
        if name == "bytepair.protocol":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                classes = node.args[1]
                elts = classes.elts if isinstance(classes, ast.Tuple) else [classes]
                named = {e.id if isinstance(e, ast.Name) else getattr(e, "attr", "") for e in elts}
                if named & TOKENIZER_CLASSES:
                    bad.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    assert bad == []


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_import_bytepair_leaves_teaching_and_page_modules_unloaded():
    """PEP 562: ``import bytepair`` loads the encoder, trainer and file formats; the teaching and
    page modules load on first use, and every name of ``__all__`` still resolves."""
    import json
    import os
    import subprocess

    code = (
        "import json, sys, bytepair\n"
        "before = sorted(m for m in sys.modules if m.startswith('bytepair.'))\n"
        "missing = [n for n in bytepair.__all__ if getattr(bytepair, n, None) is None]\n"
        "print(json.dumps({'before': before, 'missing': missing, 'dir': sorted(set(bytepair.__all__) - set(dir(bytepair)))}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(PKG.parent)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    # the sub-packages loaded on first use, whole, and the notebook view
    lazy = ("bytepair.teach", "bytepair.app", "bytepair.chat", "bytepair.hf", "bytepair.notebook")
    assert [m for m in got["before"] if m.startswith(lazy)] == []
    assert got["missing"] == [] and got["dir"] == []


#: The layers of the package, bottom first: a sub-package (``"split"``: every module under
#: ``py/bytepair/split/``) or a top-level module. A module imports only from its own layer or a
#: lower one (imports of the package ``bytepair`` itself, the public names, do not count: its
#: ``__init__`` is the door, not a layer). A new module or sub-package needs a place here.
LAYERS: list[tuple[str, set[str]]] = [
    ("floor", {"errors", "surrogates", "specials", "normalize", "offsets", "charnames", "decoding", "protocol", "bpe"}),
    ("split", {"split"}),
    ("formats", {"formats"}),
    (
        "core",
        {"tokenizer", "trainer", "corpus", "cluster_count", "registry", "notebook", "report"},
    ),
    ("chat", {"chat"}),
    ("hf", {"hf"}),
    ("tiktoken", {"tiktoken"}),
    ("teach", {"teach"}),
    ("app", {"app"}),
    ("entry", {"bytepair", "_cli", "__main__", "widgets"}),
]


def _unit(module: str) -> str:
    """The layer unit of a module: its sub-package, else its own name (``bytepair``: the package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "bytepair"


def _layer_of() -> dict[str, int]:
    return {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}


def _upward_imports(graph: dict[str, set[str]], layer: dict[str, int]) -> list[str]:
    bad = []
    for name, deps in graph.items():
        for dep in deps:
            if dep != "bytepair" and layer[_unit(dep)] > layer[_unit(name)]:
                bad.append(f"{name} ({_unit(name)}) imports {dep} ({_unit(dep)})")
    return sorted(bad)


def test_every_module_has_a_layer():
    layer = _layer_of()
    assert sorted({_unit(m) for m in MODULES} - set(layer)) == []
    assert sorted(set(layer) - {_unit(m) for m in MODULES}) == []  # no stale entry


def test_layer_check_finds_an_upward_import():
    layer = {"split": 0, "app": 1}
    graph = {"bytepair.split.patterns": {"bytepair.app.models"}, "bytepair.app.models": {"bytepair.split.patterns"}}
    assert _upward_imports(graph, layer) == ["bytepair.split.patterns (split) imports bytepair.app.models (app)"]


def test_imports_go_down_the_layers():
    """No import from a higher layer, so no circle between sub-packages (each one node) either."""
    graph = {name: _imports(name, tree) for name, tree in TREES.items()}
    assert _upward_imports(graph, _layer_of()) == []
    units: dict[str, set[str]] = {}
    for name, deps in graph.items():
        units.setdefault(_unit(name), set()).update(
            _unit(d) for d in deps if d != "bytepair" and _unit(d) != _unit(name)
        )
    units.pop("bytepair", None)
    assert _circles(units) == []
