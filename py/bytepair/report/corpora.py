"""Parallel corpora for :mod:`bytepair.report`: ``{language: text}`` from disk.

Three layouts, one entry point (:func:`load_corpus`):

* ``flores200:DIR`` - a local copy of FLORES-200 in the layout Petrov et al.
  (2023, https://github.com/AleksandarPetrov/tokenization-fairness,
  ``compute/compute_tokenizations.py``) read: ``DIR/dev/<code>.dev`` and
  ``DIR/devtest/<code>.devtest`` per language code (``eng_Latn``). A
  language's text is, as there, the lines of the dev file followed by the
  lines of the devtest file (each file's text split at ``"\\n"``, so a final
  newline gives an empty line), joined with single spaces.
* ``udhr`` or ``udhr:FILE`` - the playground's UDHR samples (the Compare view's
  ``samples/udhr.json``, written by the site build: preamble and Article 1 of
  44 languages, keyed by udhr code such as ``eng``). Plain ``udhr`` reads the
  built site's copy in this checkout (``web/dist/samples/udhr.json``).
* a directory - the user's own parallel texts: one ``<language>.txt`` file
  per language (UTF-8), the file's whole text.

FLORES-200 itself is not shipped (CC BY-SA 4.0 text, about 25 MB); the site ships a subset for
the Report view (``web/samples/flores200-subset.json``: the first 10 devtest sentences of each
language, same layout as ``samples/udhr.json``, so ``udhr:FILE`` reads it too).
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

from ..errors import ArgumentError

__all__ = ["ParallelCorpus", "load_corpus", "read_flores200", "read_parallel_dir", "read_udhr_samples", "UDHR_SAMPLES"]

#: Where plain ``--corpus udhr`` looks: the site build's samples in this checkout.
UDHR_SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "web" / "dist" / "samples" / "udhr.json"


@dataclasses.dataclass(frozen=True)
class ParallelCorpus:
    """A parallel corpus: ``texts`` maps a language code to its text (characters).

    ``name`` says what it is and which part (``"FLORES-200 dev+devtest (DIR)"``);
    ``baseline`` is the language premiums are measured against by default
    (``"eng_Latn"``, ``"eng"``) or ``None`` when the corpus has no English.
    """

    name: str
    texts: dict[str, str]
    baseline: str | None = None


def _default_baseline(texts: dict[str, str]) -> str | None:
    for code in ("eng_Latn", "eng", "en"):
        if code in texts:
            return code
    return None


def read_flores200(directory: str | pathlib.Path) -> ParallelCorpus:
    """Read FLORES-200 dev + devtest in Petrov et al.'s layout (module docstring).

    Returns:
        a :class:`ParallelCorpus` keyed by FLORES code (``eng_Latn``), sorted.

    Raises:
        ArgumentError: (``field="corpus"``) no ``dev/*.dev`` file, or a language
            without its ``devtest/<code>.devtest``.
    """
    d = pathlib.Path(directory)
    devs = sorted((d / "dev").glob("*.dev"))
    if not devs:
        raise ArgumentError(
            f"{d}: no FLORES-200 dev/<code>.dev files (expected DIR/dev and DIR/devtest)", field="corpus"
        )
    texts = {}
    for dev in devs:
        code = dev.name.removesuffix(".dev")
        devtest = d / "devtest" / f"{code}.devtest"
        if not devtest.is_file():
            raise ArgumentError(f"{d}: {code} has dev/{code}.dev but no devtest/{code}.devtest", field="corpus")
        # text mode with universal newlines, as Petrov et al.'s open(..., "r")
        lines = dev.read_text(encoding="utf-8").split("\n") + devtest.read_text(encoding="utf-8").split("\n")
        texts[code] = " ".join(lines)
    return ParallelCorpus(f"FLORES-200 dev+devtest ({d})", texts, _default_baseline(texts))


def read_parallel_dir(directory: str | pathlib.Path) -> ParallelCorpus:
    """The user's parallel texts: every ``<language>.txt`` in ``directory`` (UTF-8), keyed by file stem.

    Raises:
        ArgumentError: (``field="corpus"``) no ``.txt`` file, or one that is not UTF-8.
    """
    d = pathlib.Path(directory)
    files = sorted(d.glob("*.txt"))
    if not files:
        raise ArgumentError(f"{d}: no <language>.txt files", field="corpus")
    texts = {}
    for f in files:
        try:
            texts[f.stem] = f.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise ArgumentError(f"{f}: not UTF-8 ({e.reason} at byte {e.start})", field="corpus") from e
    return ParallelCorpus(f"parallel texts ({d})", texts, _default_baseline(texts))


def read_udhr_samples(path: str | pathlib.Path | None = None) -> ParallelCorpus:
    """The UDHR samples of the Compare view (``samples/udhr.json``: ``{"source", "unit", "languages":
    [{code, text, ...}]}``), keyed by udhr code (``eng``).

    Raises:
        ArgumentError: (``field="corpus"``) the file is missing (build the site: ``python build.py``)
            or not in that layout.
    """
    p = pathlib.Path(path) if path is not None else UDHR_SAMPLES
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        texts = {row["code"]: row["text"] for row in data["languages"]}
        unit = data.get("unit", "")
    except FileNotFoundError as e:
        raise ArgumentError(
            f"{p} is missing: build the site (`python build.py`) or give udhr:FILE", field="corpus"
        ) from e
    except (ValueError, KeyError, TypeError) as e:
        raise ArgumentError(f"{p}: not a samples/udhr.json file ({e})", field="corpus") from e
    return ParallelCorpus(f"UDHR samples ({unit})", texts, _default_baseline(texts))


def load_corpus(spec: str) -> ParallelCorpus:
    """``flores200:DIR``, ``udhr``, ``udhr:FILE`` or a directory of ``<language>.txt`` files.

    Raises:
        ArgumentError: (``field="corpus"``) an unknown spec or an unreadable corpus.
    """
    if spec.startswith("flores200:"):
        return read_flores200(spec.removeprefix("flores200:"))
    if spec == "udhr":
        return read_udhr_samples()
    if spec.startswith("udhr:"):
        return read_udhr_samples(spec.removeprefix("udhr:"))
    if pathlib.Path(spec).is_dir():
        return read_parallel_dir(spec)
    raise ArgumentError(
        f"corpus {spec!r}: give flores200:DIR, udhr, udhr:FILE or a directory of <language>.txt files",
        field="corpus",
    )
