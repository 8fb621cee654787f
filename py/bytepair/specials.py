"""Special tokens in text: which are allowed, which are refused, where they are.

Follows tiktoken's contract (``tiktoken/core.py``, ``Encoding.encode``):
``allowed_special`` tokens in the text become their special id;
``disallowed_special`` tokens in the text raise ``ValueError``; every other
occurrence of a special token's string is encoded as ordinary text.
Matching is exact and longest first (``<|a|>x`` beats ``<|a|>`` when both are
special tokens and both match at the same place).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator, Mapping
from typing import Literal

__all__ = ["resolve_special_sets", "special_regex", "check_disallowed", "split_on_specials"]

AllOr = Literal["all"] | Collection[str]


def resolve_special_sets(
    special_tokens: Mapping[str, int],
    allowed_special: AllOr,
    disallowed_special: AllOr,
) -> tuple[frozenset[str], frozenset[str]]:
    """Turn tiktoken-style options into ``(allowed, disallowed)`` sets of token strings.

    ``"all"`` means every special token; ``disallowed_special="all"`` means every
    special token that is not allowed.

    Raises:
        TypeError: an option is a bare ``str`` other than ``"all"`` (a common slip:
            pass ``{"<|endoftext|>"}``, not ``"<|endoftext|>"``).
        ValueError: an allowed token is not a special token of this tokenizer.
    """
    names = frozenset(special_tokens)
    allowed = _as_set(allowed_special, names, "allowed_special")
    unknown = allowed - names
    if unknown:
        raise ValueError(
            f"allowed_special names {sorted(unknown)!r}, which are not special tokens of this tokenizer; "
            f"its special tokens are {sorted(names)!r} (register new ones with register_special_tokens)"
        )
    if disallowed_special == "all":
        disallowed = names - allowed
    else:
        disallowed = _as_set(disallowed_special, names, "disallowed_special") & names
    return allowed, disallowed


def _as_set(value: AllOr, names: frozenset[str], what: str) -> frozenset[str]:
    if value == "all":
        return names
    if isinstance(value, str):
        raise TypeError(f'{what} must be "all" or a collection of token strings, e.g. {{{value!r}}}, not a str')
    return frozenset(value)


@functools.lru_cache(maxsize=64)
def special_regex(tokens: frozenset[str]) -> re.Pattern[str] | None:
    """A stdlib ``re`` pattern matching any of ``tokens``, longest first; None if empty."""
    if not tokens:
        return None
    ordered = sorted(tokens, key=lambda t: (-len(t), t))
    return re.compile("|".join(re.escape(t) for t in ordered))


def check_disallowed(text: str, disallowed: frozenset[str]) -> None:
    """Raise ``ValueError`` if ``text`` contains a disallowed special token.

    The message names the token, where it is (character offset), and both ways
    out: allow it, or encode it as ordinary text.
    """
    rx = special_regex(disallowed)
    if rx is None:
        return
    m = rx.search(text)
    if m is not None:
        tok = m.group()
        raise ValueError(
            f"the text contains the special token {tok!r} at character {m.start()}. "
            f'To encode it as the special token, pass allowed_special={{{tok!r}}} (or "all"); '
            f"to encode it as ordinary text, pass disallowed_special=() or leave {tok!r} out of disallowed_special."
        )


def split_on_specials(text: str, allowed: frozenset[str]) -> Iterator[tuple[str, bool]]:
    """Cut ``text`` at allowed special tokens.

    Yields ``(segment, is_special)`` in order; ordinary segments are never empty.
    Example: ``"a<|endoftext|>b"`` -> ``("a", False), ("<|endoftext|>", True), ("b", False)``.
    """
    rx = special_regex(allowed)
    if rx is None:
        if text:
            yield text, False
        return
    pos = 0
    for m in rx.finditer(text):
        if m.start() > pos:
            yield text[pos : m.start()], False
        yield m.group(), True
        pos = m.end()
    if pos < len(text):
        yield text[pos:], False
