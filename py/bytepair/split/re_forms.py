r"""Equivalent forms of the encodings' split patterns that run faster on stdlib ``re``.

:func:`re_form` returns, for a pattern of :data:`bytepair.split.patterns.PATTERNS`, a
pattern in the same (``regex``) syntax that finds the same pieces in every text,
written so that ``re`` (the ``"re"`` back-end of :mod:`bytepair.split.pretokenize`,
the one Pyodide runs) spends fewer steps on common text. Any other pattern is
returned unchanged.

Only ``o200k_base`` has one. ``re`` tries the alternatives of a pattern in
order at each position, and the first two alternatives of o200k
(``[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+...``)
backtrack through an optional first character and an optional upper-case run
on every word, and fail slowly on every punctuation mark and digit before the
alternative that takes them is reached. The form puts in front of the seven
original alternatives (kept unchanged, in order) a few alternatives that each
match only where the original would find the very same piece at that position,
and that start with one character class or literal, which ``re`` checks before
entering an alternative. Where none of them applies, the original alternatives
decide, so the pieces cannot differ; the argument for each front alternative is
in :data:`O200K_RE_FORM`'s comments below. Measured (``tools/bench_browser.py
peers``; Pyodide, CPU time, 1 MB of KJV): splitting 50 -> 39 ms; the UDHR mix is
unchanged (its words are not ASCII). ``tests/core/test_re_forms.py`` checks the
form against the original on ``regex`` (corpora, every edge case, Hypothesis).

The front alternatives look at a character only through ASCII ranges and the
classes ``\s \p{L} \p{N} \p{M}``, so the astral proxies of
:mod:`bytepair.split.pretokenize` (a BMP stand-in in the same classes, never ASCII)
stay exact with this form too.
"""

from __future__ import annotations

from .patterns import O200K_PATTERN

__all__ = ["O200K_RE_FORM", "re_form"]

# o200k's contraction suffix, as in the pattern.
_SUFFIX = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)"
# The pattern's second class ("lower-case" side): \p{Ll} plus the letters and marks of both sides.
_LOWER = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"

#: ``o200k_base``'s split pattern with front alternatives for common text (see the module
#: docstring). Notation: ``P = [^\r\n\p{L}\p{N}]`` (the optional first character of the
#: original's first two alternatives, A1 and A2), ``U`` / ``L`` their upper / lower classes
#: (both hold ``\p{Lm} \p{Lo} \p{M}``), ``S`` the suffix. The original tries A1 = ``P? U* L+ S?``,
#: A2 = ``P? U+ L* S?``, then ``\p{N}{1,3}``, A4 = `` ?[^\s\p{L}\p{N}]+[\r\n/]*``, ...; it takes
#: the first that matches. Nothing follows ``L+ S?`` in A1, so once A1 reaches ``L`` it succeeds
#: with ``L`` and ``S`` as long as possible: possessive ``L*+`` / ``S?+`` below change nothing.
O200K_RE_FORM = "|".join(
    [
        # 1. at [a-z]: P? cannot take a letter, U* takes nothing ([a-z] is not in U), so A1
        #    matches: the run of L from here, then S.
        rf"[a-z]{_LOWER}*+{_SUFFIX}?+",
        # 2. at a space before [a-z]: A1 with P? = the space, U* empty, the run of L, then S.
        rf" [a-z]{_LOWER}*+{_SUFFIX}?+",
        # 3. at [A-Z] before [a-z]: A1 with U* = that one capital ([a-z] is not in U), then L, S.
        rf"[A-Z][a-z]{_LOWER}*+{_SUFFIX}?+",
        # 4. the same after a space (P? = the space).
        rf" [A-Z][a-z]{_LOWER}*+{_SUFFIX}?+",
        # 5. at a digit: A1 and A2 fail (a digit is in neither P nor U nor L), so the original's
        #    third alternative, \p{N}{1,3}, matches; nothing follows it.
        r"\p{N}{1,3}+",
        # 6. at a character c of [^\s\p{L}\p{N}\p{M}] (punctuation, symbols) not followed by a
        #    letter or mark: A1/A2 with P? = c need a letter or mark next, and without P? need c
        #    to be one, so they fail, as does \p{N}; A4 matches (its " ?" cannot take c): the
        #    run of [^\s\p{L}\p{N}], then [\r\n/]* (nothing follows it).
        r"[^\s\p{L}\p{N}\p{M}](?![\p{L}\p{M}])[^\s\p{L}\p{N}]*+[\r\n/]*+",
        # 7. at a space before such a c: A1/A2 (P? = the space, or none) fail the same way;
        #    A4 matches with " ?" = the space.
        r" [^\s\p{L}\p{N}\p{M}][^\s\p{L}\p{N}]*+[\r\n/]*+",
        # then the original, unchanged, for everything else
        O200K_PATTERN,
    ]
)

_FORMS = {O200K_PATTERN: O200K_RE_FORM}


def re_form(pattern: str) -> str:
    """The form of ``pattern`` to give the stdlib ``re`` back-end (``regex`` syntax, for
    :func:`bytepair.split.retranslate.to_stdlib_re`): :data:`O200K_RE_FORM` for
    ``o200k_base``'s pattern, else ``pattern`` itself. Both find the same pieces in
    every text (module docstring)."""
    return _FORMS.get(pattern, pattern)
