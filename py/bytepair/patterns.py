"""Split patterns (pre-tokenizers) of the real encodings, their names and aliases.

A split pattern is a regular expression in the syntax of the third-party
``regex`` module; a tokenizer runs ``findall`` with it over the text (in
*characters*) and applies BPE to each match (a *piece*) separately, so merges
never cross piece boundaries. ``"none"`` means no pre-tokenizer: the whole text
is one sequence (minbpe's ``BasicTokenizer``).

The patterns are copied character for character from tiktoken
(``tiktoken_ext/openai_public.py``, https://github.com/openai/tiktoken, MIT);
a test checks them against the installed tiktoken. Use
:func:`bytepair.pretokenize.compile_pattern` to run one.
"""

from __future__ import annotations

import re

from .errors import PatternError

__all__ = [
    "GPT2_PATTERN",
    "CL100K_PATTERN",
    "O200K_PATTERN",
    "PATTERNS",
    "ALIASES",
    "resolve_pattern",
]

#: GPT-2's split pattern, shared by ``gpt2``, ``r50k_base``, ``p50k_base``
#: (and tiktoken's ``p50k_edit``). tiktoken's ``r50k_pat_str``: an equivalent, faster form
#: of the GPT-2 release's ``'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+|
#: ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`` (possessive quantifiers, ``\s++$``).
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

#: ``cl100k_base`` (GPT-3.5 / GPT-4): case-insensitive contractions, numbers in
#: runs of at most 3 digits, one leading non-letter glued to a word. From the
#: ``pat_str`` of ``cl100k_base()`` in tiktoken's ``openai_public.py``.
CL100K_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

#: ``o200k_base`` (GPT-4o): words split at case changes (``\p{Lu}`` ... then
#: ``\p{Ll}`` ...), contractions attached to the word. tiktoken builds it as
#: ``"|".join([...])`` of these seven alternatives in ``o200k_base()``.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

#: Split pattern by encoding name, spelled as tiktoken spells them.
PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "r50k_base": GPT2_PATTERN,
    "p50k_base": GPT2_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}

#: Short names people use for the model families.
ALIASES: dict[str, str] = {
    "gpt4": "cl100k_base",
    "gpt4o": "o200k_base",
}


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
            (:data:`bytepair.pretokenize.BACKEND`); the message quotes the
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
    from .pretokenize import compile_pattern  # imported late: pretokenize is the heavier module

    try:
        compile_pattern(name_or_regex)
    except ValueError as e:
        raise PatternError(
            f"pattern {name_or_regex!r} is not a known name ({known}) and not a valid regex: {e}. "
            "Fix the regex, or pass one of the names.",
            pos=getattr(e, "pos", None),
            construct=getattr(e, "construct", None),
            reason=getattr(e, "reason", None),
        ) from e
    return name_or_regex
