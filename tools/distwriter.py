"""DistWriter: the one way the site build writes into web/dist/.

Every build step (site_build, wheels, model_files, adapter_wheel, snapshot)
takes one; it writes only what changed and remembers what it produced, so the
build can prune stale files at the end.
"""

from __future__ import annotations

import os
import pathlib
import shutil

from tools.buildutil import BuildError


class DistWriter:
    """Writes files into dist/ only when their content changed (atomically) and
    remembers every file it produced, so that stale files can be pruned."""

    def __init__(self, root: pathlib.Path) -> None:
        self.root = root
        self.produced: set[str] = set()
        self.updated: list[str] = []

    def _claim(self, rel: str) -> pathlib.Path:
        p = pathlib.PurePosixPath(rel)
        if p.is_absolute() or ".." in p.parts:
            raise BuildError(f"refusing to write outside {self.root}: {rel!r}")
        self.produced.add(str(p))
        return self.root / p

    def copy(self, src: pathlib.Path, rel: str) -> None:
        """Copy ``src`` to ``dist/rel`` unless size and mtime already match."""
        if not src.is_file():
            raise BuildError(f"missing input file: {src}")
        dst = self._claim(rel)
        s = src.stat()
        if dst.is_file():
            d = dst.stat()
            if d.st_size == s.st_size and d.st_mtime_ns == s.st_mtime_ns:
                return
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(f".{dst.name}.tmp")
        shutil.copy2(src, tmp)
        os.replace(tmp, dst)
        self.updated.append(rel)

    def write(self, rel: str, data: bytes) -> None:
        """Write ``data`` to ``dist/rel`` unless it already holds exactly that."""
        dst = self._claim(rel)
        if dst.is_file() and dst.stat().st_size == len(data) and dst.read_bytes() == data:
            return
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_name(f".{dst.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, dst)
        self.updated.append(rel)

    def is_newer(self, rel: str, src: pathlib.Path) -> bool:
        """Claim ``dist/rel`` and say whether it exists and is newer than ``src``
        (a file generated from ``src`` need not be generated again)."""
        dst = self._claim(rel)
        return dst.is_file() and dst.stat().st_mtime_ns >= src.stat().st_mtime_ns

    def claim(self, rel: str) -> bool:
        """Keep ``dist/rel``, written by a step outside this writer (so prune leaves it);
        return whether it exists."""
        return self._claim(rel).is_file()

    def prune(self) -> list[str]:
        """Delete files under dist/ that this build did not produce; return their paths."""
        removed = []
        for p in sorted(self.root.rglob("*"), reverse=True):
            rel = p.relative_to(self.root).as_posix()
            if p.is_file() or p.is_symlink():
                if rel not in self.produced:
                    p.unlink()
                    removed.append(rel)
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
        return removed
