"""Split patterns (pre-tokenizers) of the real encodings, their names and aliases.

A split pattern is a regular expression in the syntax of the third-party
``regex`` module; a tokenizer runs ``findall`` with it over the text (in
*characters*) and applies BPE to each match (a *piece*) separately, so merges
never cross piece boundaries. ``"none"`` means no pre-tokenizer: the whole text
is one sequence (minbpe's ``BasicTokenizer``).

The patterns are copied character for character from tiktoken
(``tiktoken_ext/openai_public.py``, https://github.com/openai/tiktoken, MIT);
a test checks them against the installed tiktoken. Use
:func:`bytepair.split.pretokenize.compile_pattern` to run one and
:func:`bytepair.split.pretokenize.resolve_pattern` to turn a ``pattern=`` argument into one (this
module is data only: it imports nothing of bytepair, so the split modules can import it).
"""

from __future__ import annotations

__all__ = [
    "GPT2_PATTERN",
    "CL100K_PATTERN",
    "O200K_PATTERN",
    "PATTERNS",
    "ALIASES",
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
