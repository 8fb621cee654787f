"""Rewrite a ``regex``-syntax split pattern so the standard ``re`` matches the same.

The split patterns of the real encodings (see :mod:`bytepair.split.patterns`) are
written for the third-party ``regex`` module (tiktoken runs them on Rust's
fancy-regex): they use ``\\p{L}``-style Unicode properties, which ``re`` lacks.
Python 3.11+ ``re`` has everything else they need (possessive quantifiers
``++ *+ ?+ {m,n}+`` and atomic groups), so :func:`to_stdlib_re` only rewrites
what ``re`` does not have or means differently:

* ``\\p{X}``, ``\\P{X}``, ``\\p{^X}``, ``\\pL``, POSIX ``[[:alpha:]]`` and the
  escapes ``\\s \\S \\d \\D \\w \\W \\h`` become explicit code-point ranges,
  outside and inside character classes (``\\S``/``\\P{X}`` inside a class add
  the complement ranges, so ``[^\\S\\n]`` keeps its meaning). The ranges come
  from :mod:`bytepair.split._unicode_tables`, measured from ``regex`` itself: ``re``'s
  own ``\\s`` includes U+001C..U+001F, ``regex``'s does not, and the two follow
  different Unicode versions.
* ``\\b``/``\\B`` become look-arounds over ``regex``'s ``\\w``.
* Case-insensitive scopes (``(?i)``, ``(?i:...)``) are expanded with
  ``regex``'s own case table: every literal character becomes the class of
  characters ``regex`` matches for it under IGNORECASE (``(?i:s)`` ->
  ``[Ssſ]``, ``(?i:k)`` -> ``[KkK]``; ``regex``'s ``(?i)i`` matches U+0130
  but not U+0131, unlike ``re``), and a class with several members gets every
  character one of whose case variants is in it (``regex``'s rule, which also
  widens properties there: ``(?i)[^\\p{L}\\p{N}]`` leaves out U+0345, a mark
  whose case variants are Greek iota). The output carries no ``i`` flag and
  does not depend on ``re``'s Unicode tables. Under ``(?a)`` case folding is
  ASCII-only and ``regex`` limits every property to ASCII (``(?a)\\p{L}`` is
  ``[A-Za-z]``); so does the translation.
* ``.``, ``^``, ``$`` under ``s``/``m`` flags become ``(?s:.)``, ``(?m:^)``,
  ``(?m:$)``; the ``x`` (verbose) flag is applied while reading (whitespace and
  comments dropped). ``regex`` applies a mid-pattern ``(?i)`` to the rest of the
  enclosing group, which ``re`` rejects; the expansion above gives the same
  effect. The output has no inline flags at all.
* ``(?<name>...)`` becomes ``(?P<name>...)``, ``\\z`` becomes ``\\Z``, ``(?#...)``
  comments are dropped.

Everything else is copied as ``re`` syntax, which for these constructs means
the same. ``regex``-only features (``\\X``, ``\\G``, ``\\K``, ``\\m``, ``\\M``,
``\\R``, ``\\L<..>``, recursion, branch reset, fuzzy matching, the ``V1``,
``f``, ``w``, ``b``, ``e``, ``p``, ``r`` and ``L`` flags) raise ``ValueError``
naming the construct.

Limits: a lone property on which ``regex``'s IGNORECASE changes the match
(``(?i)\\p{Lu}`` matches every cased letter; likewise ``\\p{Ll}``, ``\\p{Lt}``,
``Uppercase``, ``Lowercase`` ...) is refused inside ``(?i)`` scopes, and so
are back-references there. ``\\N{name}`` uses this Python's ``unicodedata``.

Sources: the behaviour reproduced here is measured from the ``regex`` module
(https://github.com/mrabarnett/mrab-regex) by ``tools/gen_unicode_tables.py``
and checked code point by code point in ``tests/core/test_patterns.py``.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata

from ..errors import PatternError
from . import _unicode_tables as _tables

__all__ = ["to_stdlib_re", "supported_properties", "unknown_property"]

MAX_CODE_POINT = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]

_VERBOSE_SPACE = " \t\n\r\f\v"
_CONTROL_ESCAPES = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
_UNSUPPORTED_ESCAPES = {
    "X": r"\X (grapheme cluster)",
    "G": r"\G (search anchor)",
    "K": r"\K (keep out)",
    "m": r"\m (start of word)",
    "M": r"\M (end of word)",
    "R": r"\R (line break sequence)",
    "g": r"\g<...> (group call)",
    "L": r"\L<...> (named list)",
}
_UNSUPPORTED_FLAGS = {
    "L": "LOCALE (bytes patterns only)",
    "b": "BESTMATCH",
    "e": "ENHANCEMATCH",
    "f": "FULLCASE",
    "p": "POSIX",
    "r": "REVERSE",
    "w": "WORD",
}
_CI_BACKREF = "back-references inside a case-insensitive (?i) scope are not supported"
_QUANTIFIER = re.compile(r"\{\d*(?:,\d*)?\}")
_FUZZY = re.compile(r"\{(?=[^{}]*[eids])[\deids<>=+,\s]*(?::[^{}]*)?\}")  # {e<=1}, {2i+1d<3:[a-z]}
_POSIX = re.compile(r"\[:(\^?)([A-Za-z]+):\]")
_GROUP_NAME = re.compile(r"[^\W\d]\w*")


def _loose(name: str) -> str:
    """Loose property-name matching: case, spaces, ``_`` and ``-`` ignored; ``:`` = ``=``."""
    return "".join(ch for ch in name.lower() if ch not in " _-").replace(":", "=")


@functools.cache
def _class_ranges(name: str) -> Ranges:
    """Inclusive code-point ranges of generated class ``name`` (parsed on first use)."""
    out = []
    for item in _tables.RANGES[name].split():
        lo, _, hi = item.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return tuple(out)


def supported_properties() -> list[str]:
    """Names accepted in ``\\p{..}`` (canonical spelling of each class), sorted.

    Loose spellings are accepted too: long general-category names
    (``Uppercase_Letter``), ``gc=``/``sc=``/``scx=`` forms, ISO 15924 script
    codes (``Latn``), ``Is`` prefixes for scripts, any case, spaces or ``_``.
    """
    return sorted(set(_tables.PROPERTY_NAMES.values()), key=lambda s: (s.startswith("scx="), s.lower()))


def unknown_property(name: str) -> dict:
    """The values of an unknown ``\\p{name}``'s :class:`~bytepair.errors.PatternError`
    (``code="unknown_property"``), for a page to word in its reader's language.

    Args:
        name: the name written inside ``\\p{..}`` (characters), ``^`` included.

    Returns:
        ``{"property": name, "suggestion": a known canonical name close to it (loose
        spelling, :func:`difflib.get_close_matches`) or None, "known": supported_properties()}``.
    """
    import difflib

    close = difflib.get_close_matches(_loose(name.lstrip("^")), list(_tables.PROPERTY_NAMES), n=1, cutoff=0.75)
    return {
        "property": name,
        "suggestion": _tables.PROPERTY_NAMES[close[0]] if close else None,
        "known": supported_properties(),
    }


def _union(parts) -> list[tuple[int, int]]:
    items = sorted(r for rs in parts for r in rs)
    out: list[tuple[int, int]] = []
    for lo, hi in items:
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _complement(ranges) -> list[tuple[int, int]]:
    out, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CODE_POINT:
        out.append((nxt, MAX_CODE_POINT))
    return out


@functools.lru_cache(maxsize=2)
def _case_inverse(ascii_only: bool = False) -> dict[int, frozenset[int]]:
    """v -> every character c whose IGNORECASE match set in ``regex`` contains v.

    So ``(?i)`` + literal v matches exactly ``_case_inverse()[v]`` (or just v).
    With ``ascii_only`` (the ``(?a)`` flag) ``regex`` folds only A-Z/a-z.
    """
    if ascii_only:
        return {c: frozenset((c, c ^ 0x20)) for c in range(0x41, 0x7B) if chr(c).isalpha()}
    variants: dict[int, frozenset[int]] = {}
    for group in _tables.CASE_VARIANTS.split(";"):
        chars, sep, matched = group.partition(">")
        vs = frozenset(int(x, 16) for x in (matched if sep else chars).split())
        for c in chars.split():
            variants[int(c, 16)] = vs
    inverse: dict[int, set[int]] = {}
    for cp, vs in variants.items():
        for v in vs:
            inverse.setdefault(v, set()).add(cp)
    return {v: frozenset(cs) for v, cs in inverse.items()}


def _case_close(ranges, ascii_only: bool = False) -> list[tuple[int, int]]:
    """What ``regex`` matches for a set of literal characters/ranges under IGNORECASE."""
    ranges = list(ranges)
    starts = [lo for lo, _ in ranges]
    extra: list[tuple[int, int]] = []
    for v, cs in _case_inverse(ascii_only).items():
        k = bisect.bisect_right(starts, v) - 1
        if k >= 0 and ranges[k][1] >= v:
            extra.extend((c, c) for c in cs)
    return _union([ranges, extra])


def _lit(cp: int) -> str:
    """``re`` syntax for one code point, valid inside and outside classes."""
    if cp < 0x80:
        ch = chr(cp)
        if ch.isalnum() or ch == "_":
            return ch
        if 0x20 <= cp < 0x7F:
            return "\\" + ch
        return "\\x%02x" % cp
    if cp < 0x100:
        return "\\x%02x" % cp
    if cp < 0x10000:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _set_text(ranges, negate: bool, bmp_only: bool = False) -> str:
    """``re`` class text for a set of ranges (or its complement when ``negate``).

    With ``bmp_only`` the code points above U+FFFF are left out (see
    :func:`to_stdlib_re`). The shorter of ``[S]`` and ``[^complement]`` is not
    chosen automatically: ``re`` accepts a member of a positive class as soon as
    one item matches, so the written form decides the fast path.
    """
    if bmp_only:
        ranges = [(lo, min(hi, 0xFFFF)) for lo, hi in ranges if lo <= 0xFFFF]
    if not ranges:
        return "(?s:.)" if negate else "[^\\x00-\\U0010ffff]"
    if not negate and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _lit(ranges[0][0])
    parts = ["[^" if negate else "["]
    for lo, hi in ranges:
        if lo == hi:
            parts.append(_lit(lo))
        elif hi == lo + 1:
            parts.append(_lit(lo) + _lit(hi))
        else:
            parts.append(_lit(lo) + "-" + _lit(hi))
    parts.append("]")
    return "".join(parts)


class _Translator:
    """One pass over a ``regex`` pattern, writing ``re`` syntax to ``self.out``."""

    def __init__(self, pattern: str, bmp_only: bool = False) -> None:
        self.bmp_only = bmp_only
        self.p = pattern
        self.n = len(pattern)
        self.i = 0
        self.out: list[str] = []
        self.flags: frozenset[str] = frozenset()  # of "i", "m", "s", "x", "a"
        self.stack: list[tuple[frozenset[str], int]] = []

    # -- errors ---------------------------------------------------------------
    def error(
        self,
        msg: str,
        pos: int,
        *,
        unsupported: bool = False,
        construct: str | None = None,
        reason: str | None = None,
        code: str | None = None,
        values: dict | None = None,
    ) -> PatternError:
        """A :class:`PatternError` (a ValueError) for a fault at ``pos``; ``unsupported``: valid
        for ``regex``, not for ``re`` (``construct`` is then the syntax at ``pos``); ``reason``:
        the fault alone when ``msg`` says more (default ``msg``); ``code``, ``values``: as
        :class:`PatternError`'s."""
        head = "the `re` back-end cannot run this split pattern" if unsupported else "invalid regex"
        near = self.p[max(0, pos - 15) : pos + 15]
        if unsupported and construct is None:
            construct = self.p[pos : max(self.i, pos + 2)]
        return PatternError(
            f"{head}: {msg} at position {pos} (near {near!r})",
            pos=pos,
            reason=reason or msg,
            construct=construct,
            code=code,
            values=values,
        )

    # -- driver ---------------------------------------------------------------
    def run(self) -> str:
        p, n = self.p, self.n
        while self.i < n:
            ch = p[self.i]
            if "x" in self.flags and ch in _VERBOSE_SPACE:
                self.i += 1
            elif "x" in self.flags and ch == "#":
                end = p.find("\n", self.i)
                self.i = n if end < 0 else end + 1
            elif ch == "\\":
                self.escape_outside()
            elif ch == "[":
                self.char_class()
            elif ch == "(":
                self.group_open()
            elif ch == ")":
                if not self.stack:
                    raise self.error("unbalanced parenthesis ')'", self.i)
                self.flags = self.stack.pop()[0]
                self.out.append(")")
                self.i += 1
            elif ch == ".":
                self.out.append("(?s:.)" if "s" in self.flags else ".")
                self.i += 1
            elif ch in "^$":
                self.out.append(f"(?m:{ch})" if "m" in self.flags else ch)
                self.i += 1
            elif ch in "|*+?":
                self.out.append(ch)
                self.i += 1
            elif ch == "{":
                self.brace()
            else:
                self.literal(ord(ch))
                self.i += 1
        if self.stack:
            raise self.error("missing ')' for this '('", self.stack[-1][1])
        return "".join(self.out)

    def literal(self, cp: int) -> None:
        if "i" in self.flags:
            variants = _case_inverse("a" in self.flags).get(cp, (cp,))
            self.out.append(_set_text(_union([[(c, c) for c in variants]]), False))
        else:
            self.out.append(_lit(cp))

    def brace(self) -> None:
        m = _QUANTIFIER.match(self.p, self.i)
        if m and m.group() not in ("{}", "{,}"):
            self.out.append(m.group())
            self.i = m.end()
            return
        if _FUZZY.match(self.p, self.i):
            raise self.error("fuzzy matching {e<=n} is `regex`-only syntax; remove it", self.i, unsupported=True)
        self.literal(ord("{"))
        self.i += 1

    # -- escapes ----------------------------------------------------------------
    def parse_escape(self, in_class: bool):
        """Read one escape at self.i (a backslash). Returns one of
        ``("char", cp)``, ``("set", ranges, negated, class_name)``, ``("raw", text)``.
        """
        p, start = self.p, self.i
        if start + 1 >= self.n:
            raise self.error("the pattern ends with a lone backslash; write \\\\ for a backslash", start)
        c = p[start + 1]
        self.i = start + 2
        if c in "pP":
            return self.property(c == "P", start)
        if c in "sdwhSDW":
            key = ("ascii_" if "a" in self.flags else "") + c.lower()
            name = _tables.ESCAPES[key]
            return ("set", _class_ranges(name), c.isupper(), name)
        if c in "01234567" and (in_class or c == "0" or self.octal3(start + 1)):
            j = self.i
            limit = start + 4
            while j < min(limit, self.n) and p[j] in "01234567":
                j += 1
            self.i = j
            value = int(p[start + 1 : j], 8)
            if value > 0o377:
                raise self.error(f"octal escape {p[start:j]} is out of range (max \\377)", start)
            return ("char", value)
        if c.isdigit():
            if in_class:
                raise self.error(f"bad escape \\{c} in a character class", start)
            j = self.i
            if j < self.n and p[j].isdigit():
                j += 1
            self.i = j
            if "i" in self.flags:
                raise self.error(_CI_BACKREF, start, unsupported=True)
            return ("raw", "(?:%s)" % p[start:j])
        if c in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[c]
            digits = p[self.i : self.i + width]
            if len(digits) != width or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise self.error(f"incomplete escape \\{c}: it needs exactly {width} hex digits", start)
            value = int(digits, 16)
            if value > MAX_CODE_POINT:
                raise self.error(f"escape {p[start : self.i + width]} is beyond U+10FFFF", start)
            self.i += width
            return ("char", value)
        if c == "N":
            end = p.find("}", self.i)
            if not p.startswith("{", self.i) or end < 0:
                raise self.error("\\N needs a character name in braces, like \\N{EM DASH}", start)
            name = p[self.i + 1 : end]
            try:
                value = ord(unicodedata.lookup(name))
            except KeyError as e:
                raise self.error(f"unknown character name {name!r} in \\N{{...}}", start) from e
            self.i = end + 1
            return ("char", value)
        if c in _CONTROL_ESCAPES:
            return ("char", _CONTROL_ESCAPES[c])
        if in_class and c == "b":
            return ("char", 8)
        if not in_class:
            if c in "bB":
                name = _tables.ESCAPES["ascii_w" if "a" in self.flags else "w"]
                w = _set_text(_class_ranges(name), False, self.bmp_only)
                if c == "b":
                    return ("raw", f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))")
                return ("raw", f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))")
            if c == "A":
                return ("raw", "\\A")
            if c in "Zz":
                return ("raw", "\\Z")
        if c in _UNSUPPORTED_ESCAPES:
            raise self.error(
                f"{_UNSUPPORTED_ESCAPES[c]} is `regex`-only syntax that the `re` back-end does not support; "
                "rewrite the pattern without it",
                start,
                unsupported=True,
            )
        if c.isascii() and c.isalnum():
            raise self.error(f"bad escape \\{c}" + (" in a character class" if in_class else ""), start)
        return ("char", ord(c))

    def octal3(self, pos: int) -> bool:
        s = self.p[pos : pos + 3]
        return len(s) == 3 and all(d in "01234567" for d in s)

    def property(self, negated: bool, start: int):
        p = self.p
        if self.i >= self.n:
            raise self.error("\\p needs a property name, like \\p{L}", start)
        if p[self.i] == "{":
            end = p.find("}", self.i)
            if end < 0:
                raise self.error("missing '}' after \\p{", start)
            raw = p[self.i + 1 : end]
            self.i = end + 1
        else:
            raw = p[self.i]
            self.i += 1
        name = raw.strip()
        if name.startswith("^"):
            negated, name = not negated, name[1:]
        cls = _tables.PROPERTY_NAMES.get(_loose(name))
        if cls is None:
            raise self.error(
                f"unknown Unicode property {raw!r} in {p[start : self.i]} (or one without a table here); supported: "
                + ", ".join(supported_properties())
                + " (also long names like Uppercase_Letter, gc=/sc=/scx= forms and script codes like Latn)",
                start,
                construct=p[start : self.i],
                reason=f"unknown Unicode property {raw!r}",
                code="unknown_property",
                values=unknown_property(raw),
            )
        return ("set", self.ascii_limit(_class_ranges(cls)), negated, cls)

    def ascii_limit(self, ranges):
        """Under the ``a`` flag ``regex`` restricts every property to ASCII (``(?a)\\p{L}`` = [A-Za-z])."""
        if "a" not in self.flags:
            return ranges
        return tuple((lo, min(hi, 0x7F)) for lo, hi in ranges if lo <= 0x7F)

    def check_case(self, cls: str, start: int) -> None:
        if "i" in self.flags and cls not in _tables.CASE_STABLE:
            raise self.error(
                f"{self.p[start : self.i]} inside a case-insensitive (?i) scope is not supported: "
                "`regex` widens it under IGNORECASE (e.g. (?i)\\p{Lu} matches all cased letters); "
                "spell the classes out, e.g. [\\p{Lu}\\p{Ll}\\p{Lt}], or drop (?i)",
                start,
                unsupported=True,
            )

    def escape_outside(self) -> None:
        start = self.i
        kind, *rest = self.parse_escape(in_class=False)
        if kind == "char":
            self.literal(rest[0])
        elif kind == "raw":
            self.out.append(rest[0])
        else:
            ranges, negated, cls = rest
            self.check_case(cls, start)
            self.out.append(_set_text(ranges, negated, self.bmp_only))

    # -- character classes ------------------------------------------------------
    def char_class(self) -> None:
        """``[...]``: the union of its members, as ``regex`` computes it.

        Under IGNORECASE ``regex`` treats a class with one member that is a
        property/escape like that property alone (see :meth:`check_case`); with
        several members a character matches when one of its case variants is
        in the union of the positive members and literals, or when none of its
        case variants is in a negated member (``\\P{..}``, ``\\S``, ...).
        """
        p, n, open_at = self.p, self.n, self.i
        self.i += 1
        negate = self.i < n and p[self.i] == "^"
        if negate:
            self.i += 1
        literal: list[tuple[int, int]] = []  # characters and ranges, and positive properties
        negated_sets: list = []  # ranges of negated members (\P{..}, \S, [:^alpha:])
        singles: list = []  # (ranges, negated, class name, position) of property members
        members = 0
        first = True
        while True:
            if self.i >= n:
                raise self.error("missing ']' for this '['", open_at)
            if p[self.i] == "]" and not first:
                self.i += 1
                break
            first = False
            members += 1
            item = self.class_item()
            if item[0] == "char" and self.i + 1 < n and p[self.i] == "-" and p[self.i + 1] != "]":
                dash = self.i
                self.i += 1
                item2 = self.class_item()
                if item2[0] == "char":
                    if item2[1] < item[1]:
                        raise self.error(f"bad character range {p[open_at : self.i]!r}: end before start", dash)
                    literal.append((item[1], item2[1]))
                    continue
                # "[a-\w]": no range; a literal '-' between the two members.
                literal.append((item[1], item[1]))
                literal.append((ord("-"), ord("-")))
                item = item2
                members += 2
            if item[0] == "char":
                literal.append((item[1], item[1]))
                continue
            ranges, negated, cls, at = item[1:]
            singles.append(item[1:])
            if negated:
                negated_sets.append(ranges)
            else:
                literal.extend(ranges)
        if "i" not in self.flags:
            total = _union([literal, *(_complement(r) for r in negated_sets)])
        elif members == 1 and singles:
            ranges, negated, cls, at = singles[0]
            self.check_case(cls, at)
            total = _complement(ranges) if negated else list(ranges)
        else:
            ascii_only = "a" in self.flags
            total = _union(
                [
                    _case_close(_union([literal]), ascii_only),
                    *(_complement(_case_close(r, ascii_only)) for r in negated_sets),
                ]
            )
        self.out.append(_set_text(total, negate, self.bmp_only))

    def class_item(self):
        """One class member: ``("char", cp)`` or ``("set", ranges, negated, class name, position)``."""
        p, start = self.p, self.i
        ch = p[start]
        if ch == "\\":
            kind, *rest = self.parse_escape(in_class=True)
            if kind == "char":
                return ("char", rest[0])
            return ("set", *rest, start)
        if ch == "[" and p.startswith("[:", start):
            m = _POSIX.match(p, start)
            if m:
                name = m.group(2).lower()
                cls = _tables.POSIX.get(name)
                if cls is None:
                    raise self.error(
                        f"unknown POSIX class {m.group()!r}; supported: " + ", ".join(sorted(_tables.POSIX)), start
                    )
                self.i = m.end()
                return ("set", self.ascii_limit(_class_ranges(cls)), bool(m.group(1)), cls, start)
        self.i += 1
        return ("char", ord(ch))

    # -- groups -------------------------------------------------------------------
    def push(self, text: str, end: int, flags: frozenset[str] | None = None) -> None:
        self.stack.append((self.flags, self.i))
        if flags is not None:
            self.flags = flags
        self.out.append(text)
        self.i = end

    def group_open(self) -> None:
        p, n, start = self.p, self.n, self.i
        if not p.startswith("(?", start):
            self.push("(", start + 1)
            return
        j = start + 2
        c = p[j] if j < n else ""
        nxt = p[j + 1] if j + 1 < n else ""
        if c == "#":
            k = j + 1
            while k < n and p[k] != ")":
                k += 2 if p[k] == "\\" else 1
            if k >= n:
                raise self.error("missing ')' to end the (?#...) comment", start)
            self.i = k + 1
        elif c in (":", ">", "=", "!"):
            self.push("(?" + c, j + 1)
        elif c == "<" and nxt in ("=", "!"):
            self.push("(?<" + nxt, j + 2)
        elif c == "<" or (c == "P" and nxt == "<"):
            k = j + 1 if c == "<" else j + 2
            m = _GROUP_NAME.match(p, k)
            if not m or not p.startswith(">", m.end()):
                raise self.error("bad group name: write (?P<name>...) with a name of letters, digits, _", start)
            self.push(f"(?P<{m.group()}>", m.end() + 1)
        elif c == "P" and nxt == "=":
            end = p.find(")", j)
            if end < 0:
                raise self.error("missing ')' after (?P=name", start)
            if "i" in self.flags:
                raise self.error(_CI_BACKREF, start, unsupported=True)
            self.out.append(p[start : end + 1])
            self.i = end + 1
        elif c == "(":
            end = p.find(")", j)
            cond = p[j + 1 : end] if end >= 0 else ""
            if not (cond.isdigit() or _GROUP_NAME.fullmatch(cond)):
                raise self.error(
                    "conditional groups must test a group number or name, like (?(1)a|b)", start, unsupported=True
                )
            self.push(f"(?({cond})", end + 1)
        elif c == "|":
            raise self.error("branch reset (?|...) is `regex`-only syntax; use a plain group", start, unsupported=True)
        elif c in ("R", "&") or c.isdigit() or (c == "P" and nxt == ">") or (c in "+-" and nxt.isdigit()):
            raise self.error(
                "recursive patterns / group calls are `regex`-only syntax; rewrite without them",
                start,
                unsupported=True,
            )
        else:
            self.flag_group(start)

    def flag_group(self, start: int) -> None:
        p, n = self.p, self.n
        on: set[str] = set()
        off: set[str] = set()
        k = start + 2
        negative = False
        while True:
            if k >= n:
                raise self.error("missing ')' after inline flags", start)
            c = p[k]
            if c in ":)":
                break
            if c == "-" and not negative:
                negative = True
            elif c == "V" and k + 1 < n and p[k + 1] in "01":
                if p[k + 1] == "1":
                    raise self.error(
                        "the V1 flag (regex's version-1 behaviour) is not supported; use V0 syntax",
                        start,
                        unsupported=True,
                    )
                k += 1
            elif c in "imsx":
                (off if negative else on).add(c)
            elif c in "au" and not negative:
                on.add(c)
            elif c in _UNSUPPORTED_FLAGS:
                raise self.error(
                    f"the {c} flag ({_UNSUPPORTED_FLAGS[c]}) is `regex`-only; remove it", start, unsupported=True
                )
            else:
                raise self.error(f"unknown inline flag {c!r}", k)
            k += 1
        flags = set(self.flags) | on
        if "u" in on:
            flags.discard("a")
        flags.discard("u")
        flags -= off
        new = frozenset(flags)
        if p[k] == ":":
            self.push("(?:", k + 1, new)
        else:
            # regex: "(?i)" applies to the rest of the enclosing group (or pattern).
            self.flags = new
            self.i = k + 1


@functools.lru_cache(maxsize=256)
def to_stdlib_re(pattern: str, *, bmp_only: bool = False) -> str:
    """Rewrite ``pattern`` (``regex`` module syntax) into stdlib ``re`` syntax.

    Args:
        pattern: a ``str`` pattern as the ``regex`` module reads it (its
            default VERSION0 behaviour), e.g. a tiktoken split pattern.
        bmp_only: leave code points above U+FFFF out of every expanded
            character class. The result is then exact only for text without
            such characters, and much faster there: ``re`` tests BMP
            characters against one bitmap but scans astral ranges one by one
            (hundreds for ``\\p{L}``) whenever the bitmap says no.
            :func:`bytepair.split.pretokenize.compile_pattern` picks per text.

    Returns:
        A ``str`` pattern for ``re`` (Python 3.11+, no flags needed) that finds
        the same matches at the same character offsets as
        ``regex.compile(pattern)``. Unicode classes are expanded into
        code-point ranges measured from ``regex`` (see
        :mod:`bytepair.split._unicode_tables` for the versions), so the output can be
        tens of kilobytes long.

    Raises:
        TypeError: ``pattern`` is not a ``str``.
        ValueError: unknown ``\\p{..}`` property (the message lists the
            supported ones), ``regex``-only syntax the ``re`` back-end cannot
            express (message names it), or malformed syntax found while
            reading (missing ``]``/``)``, bad escape). Other mistakes surface
            when ``re`` compiles the result.
    """
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str, not {type(pattern).__name__}")
    return _Translator(pattern, bmp_only).run()
