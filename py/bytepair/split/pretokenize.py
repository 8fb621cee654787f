"""Compile a split pattern on the available regular-expression back-end.

Two back-ends run the same ``regex``-syntax split patterns:

* ``"regex"``: the third-party ``regex`` module (``pip install regex``), the
  reference. Used on CPython.
* ``"re"``: the standard library ``re`` (Python 3.11+) on the pattern rewritten
  by :func:`bytepair.split.retranslate.to_stdlib_re` (``\\p{..}``, ``\\s``, ... as
  code-point ranges measured from ``regex``). Used where ``regex`` cannot be
  imported, e.g. in Pyodide; the tests prove both split every corpus the same.

:data:`BACKEND` is what ``backend="auto"`` picks in this interpreter.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import warnings
from collections.abc import Iterator
from typing import Protocol

from ..errors import PatternError
from .patterns import ALIASES, PATTERNS

try:
    import regex as _regex
except ImportError:  # Pyodide: no build of `regex` is published
    _regex = None

__all__ = ["BACKEND", "BACKENDS", "PieceMatch", "SplitPattern", "check_pattern", "compile_pattern", "resolve_pattern"]


class PieceMatch(Protocol):
    """One piece found by a split pattern (``re.Match`` and ``regex.Match`` are ones):
    offsets in characters of the text searched."""

    def start(self) -> int: ...

    def end(self) -> int: ...

    def group(self) -> str: ...

    def span(self) -> tuple[int, int]: ...

    @property
    def lastgroup(self) -> str | None: ...


class SplitPattern(Protocol):
    """What :func:`compile_pattern` returns, on either back-end: ``pattern`` is
    the pattern given; ``findall`` returns the pieces (whole matches, in order,
    also when the pattern has capturing groups); ``finditer`` yields them as
    :class:`PieceMatch` objects (from character ``pos`` on, as a compiled pattern's ``finditer``;
    the back-end is chosen for the whole ``text``)."""

    @property
    def pattern(self) -> str: ...

    def findall(self, text: str) -> list[str]: ...

    def finditer(self, text: str, pos: int = ...) -> Iterator[PieceMatch]: ...


#: ``regex`` releases whose Unicode tables were checked, code point by code
#: point, to match ``_unicode_tables`` (and so the ``re`` back-end and tiktoken):
#: [first, last]. Releases from 2026.9.29 on classify newer Unicode data
#: differently (e.g. U+0558 as a letter), which would change token ids.
#: pyproject.toml asks pip for the same range.
REGEX_VERIFIED = ((2025, 11, 3), (2026, 9, 10))


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def _regex_is_verified() -> bool:
    if _regex is None:
        return False
    lo, hi = REGEX_VERIFIED
    ok = lo <= _version(getattr(_regex, "__version__", "0")) <= hi
    if not ok:
        warnings.warn(
            f"bytepair: regex {_regex.__version__} is outside the releases checked against its Unicode tables "
            f"({'.'.join(map(str, lo))} to {'.'.join(map(str, hi))}); split patterns run on the stdlib re back-end "
            f"instead, so token ids stay equal to tiktoken's. Install a checked release: pip install 'regex<2026.9.29'",
            RuntimeWarning,
            stacklevel=2,
        )
    return ok


#: The back-end ``backend="auto"`` uses here: ``"regex"`` when it imports and
#: is a checked release (:data:`REGEX_VERIFIED`), else ``"re"``.
BACKEND: str = "regex" if _regex_is_verified() else "re"

#: Accepted values of ``compile_pattern(..., backend=...)``.
BACKENDS = ("auto", "regex", "re")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


# ----------------------------------------------------------- astral proxies
# The encodings' patterns (bytepair.split.patterns.PATTERNS) look at a character only
# through the classes below (their literals and re_forms' ranges are ASCII). So each character above
# U+FFFF can be replaced by a proxy: a BMP character (not ASCII, not a case
# variant of a literal) in exactly the same classes. The fast BMP-only `re`
# translation then splits the proxied text into pieces of the same lengths as
# the real text's, and the pieces holding a proxy are cut again from the text.
_PROXY_CLASSES = (r"\p{L}", r"\p{N}", r"\p{Lu}", r"\p{Lt}", r"\p{Lm}", r"\p{Lo}", r"\p{M}", r"\p{Ll}", r"\s")
# One candidate per general category an astral character can have (checked by signature).
_PROXY_CANDIDATES = (
    "\u00c0\u00e0\u01c5\u02b0\u00aa\u0300\u0903\u20dd\u0660\u2160\u00b2\u00a9\u00b1\u00ad\ue000\u2028\u00a0"
)
_proxy_state: dict = {}


def _to_re(pattern: str, *, bmp_only: bool = False) -> str:
    """``pattern`` (``regex`` syntax) for the stdlib ``re``: its faster equivalent form
    (:func:`bytepair.split.re_forms.re_form`), translated (:func:`bytepair.split.retranslate.to_stdlib_re`).

    The translator and its Unicode tables load here, on the first ``re`` compile, not with the
    package: CPython with ``regex`` never needs them.

    Raises:
        PatternError: a construct the translation cannot express.
    """
    from .re_forms import re_form
    from .retranslate import to_stdlib_re

    return to_stdlib_re(re_form(pattern), bmp_only=bmp_only)


def _proxy_of(ch: str) -> str | None:
    """The BMP stand-in of astral character ``ch`` (``None``: none has its classes)."""
    st = _proxy_state
    if not st:
        from .retranslate import to_stdlib_re

        classes = [re.compile(to_stdlib_re(c)) for c in _PROXY_CLASSES]
        st["sig"] = lambda c: tuple(k.fullmatch(c) is not None for k in classes)
        reps: dict[tuple, str] = {}
        for c in _PROXY_CANDIDATES:
            reps.setdefault(st["sig"](c), c)
        st["reps"], st["memo"] = reps, {}
    memo = st["memo"]
    if ch not in memo:
        memo[ch] = st["reps"].get(st["sig"](ch))
    return memo[ch]


def _proxied(text: str) -> tuple[str, list[tuple[int, str]]] | None:
    """``text`` (which has astral characters) with each one replaced by its BMP proxy
    (:func:`_proxy_of`; same length in characters), and the astral characters as
    ``(position, character)``; ``None`` when some astral character has no proxy."""
    hits = [(m.start(), m.group()) for m in _ASTRAL.finditer(text)]
    proxies = {}
    for _, ch in hits:
        if ch not in proxies:
            rep = _proxy_of(ch)
            if rep is None:
                return None
            proxies[ch] = rep
    if len(hits) * 64 > len(text):
        chars = list(text)
        for pos, ch in hits:
            chars[pos] = proxies[ch]
        return "".join(chars), hits
    return _ASTRAL.sub(lambda m: proxies[m.group()], text), hits


def _findall_with_proxies(bmp, text: str) -> list[str] | None:
    """Pieces of ``text`` (which has astral characters) found by the BMP-only
    translation ``bmp`` of a covering pattern of :data:`PATTERNS`, or ``None``
    when some astral character has no proxy or the pieces do not cover the text."""
    found = _proxied(text)
    if found is None:
        return None
    proxied, hits = found
    pieces = bmp.findall(proxied)
    ends = list(itertools.accumulate(map(len, pieces)))
    if not ends or ends[-1] != len(text):
        return None
    fixed = -1
    for pos, _ in hits:
        k = bisect.bisect_right(ends, pos)
        if k != fixed:
            pieces[k] = text[ends[k] - len(pieces[k]) : ends[k]]
            fixed = k
    return pieces


class _ProxyMatch:
    """A piece of the real text at the offsets the BMP translation matched in its proxied copy
    (a :class:`PieceMatch`; the encodings' patterns have no groups)."""

    __slots__ = ("_text", "_start", "_end")

    lastgroup = None

    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._start, self._end = text, start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def group(self) -> str:
        return self._text[self._start : self._end]


def _finditer_with_proxies(bmp, text: str, pos: int) -> Iterator[PieceMatch] | None:
    """``finditer`` of the BMP-only translation ``bmp`` over ``text`` (which has astral
    characters) through proxies: the same offsets, since a proxy is one character in exactly
    the classes of the one it stands for; ``None`` when some astral character has no proxy."""
    found = _proxied(text)
    if found is None:
        return None
    proxied = found[0]
    return (_ProxyMatch(text, m.start(), m.end()) for m in bmp.finditer(proxied, pos))


class _WholeMatches:
    """A compiled pattern with capturing groups whose ``findall`` still returns
    whole matches (the pieces), as tiktoken's ``find_iter`` does."""

    __slots__ = ("_compiled",)

    def __init__(self, compiled) -> None:
        self._compiled = compiled

    @property
    def pattern(self) -> str:
        return self._compiled.pattern

    def findall(self, text: str) -> list[str]:
        return [m.group() for m in self._compiled.finditer(text)]

    def finditer(self, text: str, pos: int = 0):
        return self._compiled.finditer(text, pos)

    def __repr__(self) -> str:
        return f"<split pattern {self._compiled!r}>"


class _StdlibSplit:
    """The ``re`` back-end: two translations of one pattern, chosen per text.

    ``re`` checks a character against a class's BMP bitmap and then scans the
    class's ranges above U+FFFF one by one, so a text with only BMP characters
    runs on the translation without those ranges (exact for it, several times
    faster); a text with any character above U+FFFF runs on the full one
    (compiled on first use; it has the same structure, so it compiles too).
    ``findall`` and ``finditer`` of the encodings' patterns (:data:`bytepair.split.patterns.PATTERNS`)
    run such texts on the BMP translation too, with proxies for the astral
    characters (:func:`_findall_with_proxies`, :func:`_finditer_with_proxies`): the full
    translation is a second compile several times the BMP one's (~0.4 s in Pyodide for
    ``o200k_base``), which a text with one emoji would otherwise pay.
    """

    __slots__ = ("pattern", "_bmp", "_full", "_whole", "_proxies")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern  # the original (regex-syntax) pattern
        # re_form: an equivalent form of the encodings' patterns that re runs faster
        self._bmp = _compile_re(pattern, _to_re(pattern, bmp_only=True))
        self._full = None
        self._whole = bool(self._bmp.groups)
        # the encodings' patterns split texts with astral characters through proxies
        self._proxies = not self._whole and pattern in PATTERNS.values()

    @staticmethod
    def _has_astral(text: str) -> bool:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        return not text.isascii() and _ASTRAL.search(text) is not None

    def _full_translation(self):
        if self._full is None:
            self._full = _compile_re(self.pattern, _to_re(self.pattern))
        return self._full

    def findall(self, text: str) -> list[str]:
        if not self._has_astral(text):
            compiled = self._bmp
        else:
            if self._proxies:
                pieces = _findall_with_proxies(self._bmp, text)
                if pieces is not None:
                    return pieces
            compiled = self._full_translation()
        if self._whole:
            return [m.group() for m in compiled.finditer(text)]
        return compiled.findall(text)

    def finditer(self, text: str, pos: int = 0):
        if not self._has_astral(text):
            return self._bmp.finditer(text, pos)
        if self._proxies:
            found = _finditer_with_proxies(self._bmp, text, pos)
            if found is not None:
                return found
        return self._full_translation().finditer(text, pos)

    def __repr__(self) -> str:
        return f"<split pattern on re: {self.pattern!r}>"


class _HybridSplit:
    """``backend="auto"`` where ``regex`` is available, for the encodings'
    patterns (:data:`bytepair.split.patterns.PATTERNS`): ``regex`` for short texts,
    the stdlib ``re`` BMP-only translation (the ``"re"`` back-end, proven equal
    to ``regex`` on every corpus by tests/core/test_patterns.py) for long
    texts, with characters above U+FFFF replaced by proxies
    (:func:`_findall_with_proxies`) in ``findall``. About 2.5x faster than
    ``regex`` (KJV 4 MB 1.15 s -> 0.41 s; UDHR mix 1.4 s -> 0.4 s). A pattern
    whose translation fails stays on ``regex``."""

    __slots__ = ("pattern", "_regex", "_re", "_whole")

    #: Texts shorter than this (characters) stay on ``regex`` (the ``re``
    #: translation costs ~50 ms to compile, once per pattern).
    MIN_CHARS = 4096

    def __init__(self, pattern: str, compiled) -> None:
        self.pattern = pattern
        self._regex = compiled
        self._re = None  # compiled lazily; False once it proved impossible
        self._whole = bool(compiled.groups)

    def _bmp_re(self):
        """The compiled BMP-only ``re`` translation, or ``self._regex`` if it cannot be had."""
        if self._re is None:
            try:
                self._re = _compile_re(self.pattern, _to_re(self.pattern, bmp_only=True))
            except (ValueError, re.error):
                self._re = False
        return self._regex if self._re is False else self._re

    def _pick(self, text: str):
        """An engine exact on ``text`` (also for ``finditer``): ``re`` only for long BMP-only texts."""
        if not isinstance(text, str) or len(text) < self.MIN_CHARS:
            return self._regex
        if not text.isascii() and _ASTRAL.search(text) is not None:
            return self._regex
        return self._bmp_re()

    def findall(self, text: str) -> list[str]:
        if self._whole:
            return [m.group() for m in self._regex.finditer(text)]
        if isinstance(text, str) and len(text) >= self.MIN_CHARS and not text.isascii() and _ASTRAL.search(text):
            bmp = self._bmp_re()
            pieces = _findall_with_proxies(bmp, text) if bmp is not self._regex else None
            return pieces if pieces is not None else self._regex.findall(text)
        return self._pick(text).findall(text)

    def finditer(self, text: str, pos: int = 0):
        return self._pick(text).finditer(text, pos)

    def __repr__(self) -> str:
        return f"<split pattern on regex/re: {self.pattern!r}>"


def compile_pattern(pattern: str, *, backend: str = "auto") -> SplitPattern:
    """Compile a split pattern (``regex`` syntax) for splitting text into pieces.

    Args:
        pattern: the split pattern, e.g. :data:`bytepair.split.patterns.CL100K_PATTERN`
            or a custom regex with ``\\p{..}`` classes (not an encoding name:
            see :func:`resolve_pattern`).
        backend: ``"auto"`` (:data:`BACKEND`), ``"regex"`` or ``"re"``.

    Returns:
        A :class:`SplitPattern`: an object with ``.findall(text) -> list[str]`` (the pieces: whole
        matches, in order, as ``str`` slices of ``text``, also when the
        pattern has capturing groups), ``.finditer(text)`` (match objects with
        ``.start()``, ``.end()``, ``.group()``; offsets in characters) and
        ``.pattern`` (the pattern given). On ``"regex"`` without groups it is
        the compiled ``regex`` pattern itself. ``"auto"`` with ``regex``
        available gives the encodings' patterns a dispatcher that runs long
        BMP-only texts on the (faster, equal) ``re`` translation. Compiled
        patterns are cached.

    Raises:
        TypeError: ``pattern`` is not a ``str``.
        ValueError: unknown ``backend``; or the pattern is not a valid regex
            (the message gives the reason and position; the original error is
            chained), or uses ``regex``-only syntax the ``re`` back-end cannot
            run.
        ImportError: ``backend="regex"`` but the ``regex`` module is not
            installed (``pip install regex``).
    """
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: use one of {', '.join(map(repr, BACKENDS))}")
    if backend == "auto":
        return _compile(pattern, "hybrid" if BACKEND == "regex" else BACKEND)
    return _compile(pattern, backend)


@functools.lru_cache(maxsize=64)
def _compile(pattern: str, backend: str) -> SplitPattern:
    if backend == "re":
        try:
            return _StdlibSplit(pattern)
        except OverflowError as e:
            # re's parser raises this, not re.error, for a repeat count over 4294967295
            # ("x{1,99999999999}"); regex says "repeat count too big"
            raise PatternError(f"invalid regex: {e}", reason=str(e)) from e
    if backend == "hybrid":
        regex_split = _compile(pattern, "regex")
        if pattern not in PATTERNS.values():  # custom patterns: regex only
            return regex_split
        return _HybridSplit(pattern, getattr(regex_split, "_compiled", regex_split))
    if _regex is None:
        raise ImportError("backend='regex' needs the `regex` module: pip install regex (or use backend='re')")
    try:
        compiled = _regex.compile(pattern)
    except _regex.error as e:
        raise _pattern_error(e, pattern) from e
    return _WholeMatches(compiled) if compiled.groups else compiled


def _compile_re(pattern: str, translated: str):
    try:
        return re.compile(translated)
    except re.error as e:
        # Point into the user's pattern when `re` finds the same fault there
        # (the translation keeps the structure: "nothing to repeat", "missing )").
        found = _pattern_error(e, translated, pos_known=False)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                re.compile(pattern)
        except re.error as e2:
            if e2.msg == e.msg:
                found = _pattern_error(e2, pattern)
        except Exception:  # noqa: BLE001 - only a better position is at stake
            pass
        raise found from e


_PROPERTY = re.compile(r"\\[pP](?:\{[^}]*\}|\w)")


def _pattern_error(e, text: str, *, pos_known: bool = True) -> PatternError:
    """A :class:`PatternError` from a ``re.error``/``regex.error`` raised compiling ``text``.

    ``pos_known=False``: ``text`` is a translation, so its position means
    nothing in the user's pattern (``pos`` is left ``None``). For ``regex``'s
    "unknown property" (it names no property) ``construct`` is the last
    ``\\p{..}`` at or before the position."""
    msg = getattr(e, "msg", None) or str(e)
    pos = getattr(e, "pos", None)
    construct = code = values = None
    if "unknown property" in msg:
        before = [m for m in _PROPERTY.finditer(text) if pos is None or m.start() <= pos]
        construct = before[-1].group() if before else None
        if construct is not None and pos_known:
            from .retranslate import unknown_property

            code = "unknown_property"
            values = unknown_property(construct[3:-1] if construct[2:3] == "{" else construct[2:])
    return PatternError(
        f"invalid regex: {_describe(e, text)}",
        pos=pos if pos_known else None,
        reason=msg,
        construct=construct,
        code=code,
        values=values,
    )


def _describe(e, text: str) -> str:
    """``message at position N (near '...')`` for a ``re.error``/``regex.error``."""
    msg = getattr(e, "msg", None) or str(e)
    pos = getattr(e, "pos", None)
    if pos is None:
        return msg
    near = text[max(0, pos - 15) : pos + 15]
    return f"{msg} at position {pos} (near {near!r})"


#: Properties a short message names for an unknown ``\p{..}`` (all in both back-ends' tables).
PROPERTY_EXAMPLES = r"\p{L} (letters), \p{N} (numbers), \p{Lu} (upper-case letters), \p{Greek} (a script)"


def check_pattern(pattern: str | None) -> str | None:
    r"""Resolve a ``pattern=`` argument and compile it on this back-end, with a
    short message for a person when it fails (for a form field).

    Args:
        pattern: as for :func:`bytepair.resolve_pattern` (``None``/``"none"``,
            an encoding name or alias, or a regex in ``regex`` syntax).

    Returns:
        The split pattern (``str``), or ``None`` for no pre-tokenizer.

    Raises:
        TypeError: ``pattern`` is neither ``None`` nor a ``str``.
        PatternError: (a ValueError) ``field="pattern"``; ``pos``: 0-based
            character offset of the fault in ``pattern`` (or ``None``);
            ``construct``: the unknown ``\p{..}`` property, the
            ``regex``-only syntax the ``re`` back-end cannot run, or the bare
            word that is no pre-tokenizer name; ``reason``: the fault alone; ``code``
            ``"unknown_property"`` with ``property``, ``suggestion``, ``known`` for an unknown
            ``\p{..}`` (:func:`bytepair.split.retranslate.unknown_property`).
            The message is one or two sentences: the fault, where (``character
            N``, counted from 1) and what to do, without the list of every
            known name or property.
    """
    try:
        resolved = resolve_pattern(pattern)
        if resolved is not None:
            compile_pattern(resolved)
    except PatternError as e:
        raise PatternError(
            _short_message(pattern or "", e),
            pos=e.pos,
            construct=e.construct,
            reason=e.reason,
            code=e.code,
            values=e.values,
        ) from e
    return resolved


def _short_message(pattern: str, e: PatternError) -> str:
    where = f" (character {e.pos + 1})" if e.pos is not None else ""
    construct = e.construct or ""
    if e.reason == "not a pre-tokenizer name":
        return (
            f"“{pattern}” is not one of the pre-tokenizers. Used as a split regex it would find only the text "
            f"“{pattern}” itself and leave every other character out. Pick a pre-tokenizer from the list, or "
            f"write (?:{pattern}) if you do mean that regex."
        )
    if e.reason == "the pattern is empty":
        return "The pattern is empty: pick a pre-tokenizer from the list, or type a regex."
    if construct[:2] in ("\\p", "\\P"):
        return f"{construct} is not a known Unicode property{where}. Known ones include {PROPERTY_EXAMPLES}."
    if construct:
        return f"The browser's regex engine cannot run this pattern: {e.reason}{where}."
    return f"The regex does not compile: {e.reason or e.message}{where}."


def resolve_pattern(name_or_regex: str | None) -> str | None:
    """Turn a ``pattern=`` argument into a split pattern.

    Args:
        name_or_regex: ``None`` or ``"none"`` (no pre-tokenizer); an encoding
            name from :data:`PATTERNS` (``"gpt2"``, ``"r50k_base"``,
            ``"p50k_base"``, ``"cl100k_base"``, ``"o200k_base"``) or an alias
            (``"gpt4"`` -> cl100k_base, ``"gpt4o"`` -> o200k_base); anything
            else is taken as a custom regex in ``regex`` syntax (``\\p{..}``
            classes allowed).

    Returns:
        ``None`` for "no pre-tokenizer: the whole text is one sequence", else
        the pattern ``str``.

    Raises:
        TypeError: ``name_or_regex`` is neither ``None`` nor a ``str``.
        PatternError (a ValueError, with ``pos``/``construct``/``reason``): an empty string; a bare word that is not a known name
            (likely a misspelt name; write ``(?:word)`` for a literal regex);
            a custom regex that does not compile on the back-end in use
            (:data:`bytepair.split.pretokenize.BACKEND`); the message quotes the
            regex error and its position and lists the known names.
    """
    if name_or_regex is None:
        return None
    if not isinstance(name_or_regex, str):
        raise TypeError(
            f"pattern must be a str (an encoding name, 'none', or a regex) or None, not {type(name_or_regex).__name__}"
        )
    if name_or_regex == "none":
        return None
    key = ALIASES.get(name_or_regex, name_or_regex)
    if key in PATTERNS:
        return PATTERNS[key]
    known = ", ".join([*PATTERNS, *ALIASES, "none"])
    if not name_or_regex:
        raise PatternError(
            f"pattern is empty: pass 'none' for no pre-tokenizer, one of {known}, or a regex",
            reason="the pattern is empty",
        )
    if re.fullmatch(r"[A-Za-z0-9_.-]+", name_or_regex):
        # a bare word is almost always a misspelt name ("cl100k", "GPT2"), and as a regex
        # it would match only itself and drop the rest of the text
        raise PatternError(
            f"pattern {name_or_regex!r} is not a known name ({known}); "
            f"if you really mean a regex that matches only that word, write it as (?:{name_or_regex})",
            construct=name_or_regex,
            reason="not a pre-tokenizer name",
        )
    try:
        compile_pattern(name_or_regex)
    except ValueError as e:
        raise PatternError(
            f"pattern {name_or_regex!r} is not a known name ({known}) and not a valid regex: {e}. "
            "Fix the regex, or pass one of the names.",
            pos=getattr(e, "pos", None),
            construct=getattr(e, "construct", None),
            reason=getattr(e, "reason", None),
            code=getattr(e, "code", None),
            values=getattr(e, "values", None),
        ) from e
    return name_or_regex
