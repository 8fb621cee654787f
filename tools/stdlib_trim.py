"""A Python standard library for the site trimmed to what the playground can import (issue 20).

Pyodide's ``python_stdlib.zip`` is 9.6 MB of sources (2.55 MB deflated, and brotli gains nothing on a
deflated archive). The playground imports a small part of it. :func:`trim_stdlib` keeps the modules
reachable by ``import`` statements from :func:`seed_modules` (bytepair, the worker adapter, the Chat
view's jinja2/markupsafe, Pyodide's own ``pyodide``/``_pyodide`` packages and Python's start-up) plus
:data:`SAFETY`, and writes them ``ZIP_STORED`` (uncompressed), so the precompressed ``.br``/``.gz``
copies of ``tools/precompress.py`` compress the whole archive at once.

The closure is static and generous: every ``import`` / ``from ... import`` anywhere in a kept
module's source (inside functions and ``try`` blocks too) keeps its target, so a module imported
lazily at run time is kept as well. Names not in the archive (built-in C modules, optional
third-party packages) are ignored. The build proves the result: the memory snapshot
(``tools/make_snapshot.mjs``) starts Python on the trimmed archive and imports every module of
bytepair and the adapter, and the e2e suite runs on the built site. Standard library only.
"""

from __future__ import annotations

import ast
import io
import pathlib
import zipfile

#: Kept whatever the closure says: whole packages (a prefix keeps every submodule) that are looked up
#: by name at run time rather than imported by a statement (``codecs.lookup`` -> ``encodings.*``),
#: modules Pyodide's C/JavaScript side imports by name, and what Python code run from JavaScript
#: imports (``tools/make_snapshot.mjs``: gc, importlib, json, os, pkgutil, sys, sysconfig, zipfile;
#: ``web/src/worker.js`` and ``pyboot.js``: os, sys, random).
SAFETY = (
    "gc",
    "json",
    "os",
    "pkgutil",
    "zipfile",
    "random",
    "encodings",
    "pyodide",
    "_pyodide",
    "site",
    "sitecustomize",
    "_sysconfigdata_",
    "sysconfig",
    "traceback",
    "linecache",
    "tokenize",
    "token",
    "functools",
    "importlib",
    "warnings",
    "__future__",
    "_colorize",
)


#: Modules whose imports inside functions are followed too: Pyodide's package loader unpacks wheels
#: with ``tarfile``/``zipfile`` and reads their metadata (``importlib.metadata`` -> ``email``) only
#: when ``loadPackage`` runs (a start without the memory snapshot); ``email`` parses that metadata.
LAZY = ("pyodide", "_pyodide", "importlib", "email")


def _module_name(path: str) -> str | None:
    """``a/b/c.py`` -> ``a.b.c``, ``a/b/__init__.py`` -> ``a.b``; None for other files."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if parts else None


def _walk(tree: ast.AST, lazy: bool):
    """The nodes of ``tree``; without ``lazy``, not those inside functions (run only when called) or
    under ``if __name__ == "__main__":`` (run only as a script)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if lazy or not (isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or _is_main(child)):
                todo.append(child)


def _is_main(node: ast.AST) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":``."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators)
    )


def imports_of(source: bytes, module: str, is_package: bool, *, lazy: bool = True) -> set[str]:
    """Every module name ``source`` (the module ``module``) may import: ``import a.b`` gives ``a`` and
    ``a.b``; ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a submodule); relative imports
    are resolved against ``module``. ``lazy``: also the imports inside functions (else only those
    that run when the module is imported). A file that does not parse gives the empty set."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            found.add(".".join(parts[:i]))

    for node in _walk(tree, lazy):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".") if package else []
                base_parts = base_parts[: len(base_parts) - (node.level - 1)] if node.level > 1 else base_parts
                base = ".".join(p for p in [*base_parts, node.module or ""] if p)
            else:
                base = node.module or ""
            if not base:
                continue
            add(base)
            for alias in node.names:
                if alias.name != "*":
                    add(f"{base}.{alias.name}")
    return found


def seed_modules(wheels: list[pathlib.Path]) -> set[str]:
    """The import names of every module in ``wheels`` (bytepair, the adapter, jinja2, ...) and every
    name those modules import."""
    seeds: set[str] = set()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                mod = _module_name(name)
                if mod is None or ".dist-info" in name:
                    continue
                seeds |= imports_of(z.read(name), mod, name.endswith("/__init__.py"))
    return seeds


def trim_stdlib(data: bytes, wheels: list[pathlib.Path]) -> tuple[bytes, list[str]]:
    """Trim Pyodide's ``python_stdlib.zip`` (``data``) to the modules :data:`SAFETY` and the imports
    of ``wheels`` reach, written ``ZIP_STORED`` in the original order with the original dates.

    Returns:
        (the new archive's bytes, the sorted module names kept).
    """
    src = zipfile.ZipFile(io.BytesIO(data))
    infos = src.infolist()
    modules: dict[str, zipfile.ZipInfo] = {}
    packages: set[str] = set()
    for info in infos:
        mod = _module_name(info.filename)
        if mod is not None:
            modules[mod] = info
            if info.filename.endswith("/__init__.py"):
                packages.add(mod)

    def safe(mod: str) -> bool:
        return any(mod == s or mod.startswith(s + ".") or (s.endswith("_") and mod.startswith(s)) for s in SAFETY)

    todo = [m for m in modules if safe(m)] + sorted(seed_modules(wheels))
    keep: set[str] = set()
    while todo:
        mod = todo.pop()
        if mod in keep or mod not in modules:
            continue
        keep.add(mod)
        parent = mod.rpartition(".")[0]
        if parent:
            todo.append(parent)  # importing a.b runs a/__init__.py
        lazy = any(mod == p or mod.startswith(p + ".") for p in LAZY)
        todo.extend(imports_of(src.read(modules[mod]), mod, mod in packages, lazy=lazy))
    kept_files = {modules[m].filename for m in keep}
    kept_dirs = {f.rsplit("/", 1)[0] + "/" for f in kept_files if "/" in f}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
        for info in infos:
            name = info.filename
            folder = name.rstrip("/").rpartition("/")[0] + "/" if "/" in name.rstrip("/") else ""
            if name.endswith(".py"):
                keep_it = name in kept_files
            else:  # directory entries and data files (a few hundred bytes) of kept packages
                keep_it = (name if info.is_dir() else folder) in kept_dirs or name == "site-packages/"
            if not keep_it:
                continue
            new = zipfile.ZipInfo(name, date_time=info.date_time)
            new.external_attr = info.external_attr
            new.compress_type = zipfile.ZIP_STORED
            out.writestr(new, b"" if info.is_dir() else src.read(info))
    return buf.getvalue(), sorted(keep)
