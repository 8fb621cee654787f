"""Write a trained tokenizer for the tools the field runs on: Hugging Face and tiktoken.

:func:`to_tokenizer_json` writes a Hugging Face ``tokenizer.json`` (the format
``tokenizers.Tokenizer.from_file`` and ``transformers.PreTrainedTokenizerFast``
read) that gives the same ids as :meth:`bytepair.Tokenizer.encode_ordinary` and
the same decode; :func:`to_tokenizer_config_json` writes the matching
``tokenizer_config.json``; :func:`tiktoken_encoding_kwargs` gives what
``tiktoken.Encoding(...)`` needs beside the ``.tiktoken`` rank file;
:func:`load_snippets` gives short "load it in Python" texts for each format.

How the ``tokenizer.json`` stays exact (each point is checked by
``tests/core/test_hf_export.py`` against ``tokenizers`` and ``transformers``):

* Model: ``BPE`` with the merges listed in id order. minbpe's rule (merge the
  adjacent pair with the lowest merge id, leftmost first) and Hugging Face's
  (the adjacent pair with the lowest merge rank, leftmost first) are the same
  rule when rank == merge index. ``ignore_merges`` is false (true would take a
  whole piece that is in the vocabulary without merging, which can differ),
  no ``unk_token``, no ``byte_fallback``, no dropout. Tokens are spelled in
  GPT-2's byte-to-unicode alphabet (:func:`bytepair.gpt2_view`), as every
  byte-level ``tokenizer.json`` does.
* Pre-tokenizer: ``Split`` with the split pattern, then ``ByteLevel`` with
  ``use_regex: false`` and ``add_prefix_space: false`` (it only maps bytes to
  that alphabet). ``"none"`` is the ``ByteLevel`` step alone. ``Split`` keeps
  the text *between* matches as pieces too (``behavior: Isolated``), while
  bytepair (like tiktoken's ``findall``) drops it; the OpenAI patterns match
  every character, so they use the usual ``Isolated`` form; a custom regex is
  written with ``invert: true`` and ``behavior: Removed`` (keep the matches,
  drop the gaps), which is ``findall``.
* The regex engine: ``tokenizers`` runs Oniguruma (Ruby syntax), not Python's
  ``regex``. The pattern is first rewritten by
  :func:`bytepair.split.retranslate.to_stdlib_re` (every ``\\p{..}``, ``\\s``,
  ``\\d``, ``\\w`` and case-insensitive group becomes explicit code-point
  ranges measured from ``regex``, so both engines agree whatever their Unicode
  versions), then into syntax both engines read alike (:func:`onig_pattern`):
  ``$``, ``^`` and ``\\Z`` become look-arounds, because Ruby's ``$``/``^`` are
  per line; a possessive interval ``X{1,3}+`` becomes the atomic group
  ``(?>X{1,3})``, because in Ruby syntax ``{1,3}+`` means "repeat that";
  ``[`` and ``&`` inside a class are escaped (Oniguruma nests classes and
  reads ``&&`` as intersection). Anything else Oniguruma might read
  differently (``(?m)``, named back-references, ...) raises
  :class:`~bytepair.errors.TokenizerFileError`. The patterns get long (tens of
  kilobytes); that is the price of exactness.
* Normalization ``"NFC"``/``"NFKC"`` becomes a normalizer of that type. The
  Unicode tables of ``tokenizers`` are older than Python's: 72 characters
  that Python's NFKC decomposes (U+32FF, U+A7F2..., the modifier letters
  U+10781...) ``tokenizers`` leaves alone, so ``Replace`` steps first put
  Python's decomposition in their place. Characters newer than this Python's
  Unicode version remain a difference between any two tools.
* Special tokens become ``added_tokens`` (``special: true``; ``normalized``
  is true exactly when there is a normalizer, because bytepair looks for
  special tokens in the normalized text: NFKC makes ``＜s＞`` a ``<s>``).
  ``tokenizers`` always recognizes them in text, so its ``encode``
  equals bytepair's ``encode(text, allowed_special="all")``, and equals
  ``encode_ordinary`` on text without special-token strings.
* Decoder: ``ByteLevel`` (token characters back to bytes, then UTF-8 with
  U+FFFD for invalid sequences, as :meth:`bytepair.Tokenizer.decode` does).

What cannot be written raises instead of producing a file that tokenizes
differently: a rank-based tokenizer whose merge rule differs (see
:func:`to_tokenizer_json`), two ids with the same bytes, a special token whose
text is also an ordinary token's spelling.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from typing import Any, cast

from ..decoding import gpt2_view
from ..errors import ArgumentError, TokenizerFileError
from ..normalize import UnicodeForm
from ..split.patterns import PATTERNS

__all__ = [
    "load_snippets",
    "onig_pattern",
    "tiktoken_encoding_kwargs",
    "to_tokenizer_config_json",
    "to_tokenizer_json",
]

_ESCAPE_KEEP = set("xutnrfvae0123456789") | set(r"\.^$|?*+()[]{}-/ &#~'\"!,:;<=>@%`_")
# Anchors, in JavaScript terms (no \A / \Z there; `$` is Python's: end, or before a final newline).
_ESCAPE_ANCHORS = {"Z": r"(?![\s\S])", "A": r"(?<![\s\S])"}
_CHAR_ANCHORS = {"$": r"(?=\n?(?![\s\S]))", "^": r"(?<![\s\S])"}


def onig_pattern(pattern: str, *, dialect: str = "onig") -> str:
    """Rewrite a split pattern (``regex`` syntax) so Oniguruma matches what ``regex`` matches.

    Args:
        pattern: the split pattern (a custom regex or one of
            :data:`bytepair.split.patterns.PATTERNS`).
        dialect: ``"onig"`` (Oniguruma, Ruby syntax: "dot matches newline"
            is the ``m`` flag) or ``"fancy"`` (Rust's fancy-regex, which
            tiktoken runs: it is the ``s`` flag there, as in Python).

    Returns:
        A pattern in the syntax common to Oniguruma (Ruby syntax, as
        ``tokenizers`` compiles it) and Python's ``regex``: Unicode classes
        expanded into code-point ranges (by
        :func:`bytepair.split.retranslate.to_stdlib_re`), anchors written as
        look-arounds, possessive intervals as atomic groups; astral characters
        are written literally.

    Raises:
        TokenizerFileError: the pattern uses syntax that cannot be written so
            that both engines agree (``component`` names it).
    """
    from ..split.retranslate import to_stdlib_re

    try:
        src = to_stdlib_re(pattern)
    except ValueError as e:
        raise TokenizerFileError(
            f"the split pattern cannot be written for Hugging Face tokenizers: {e}",
            field="pattern",
            component="pattern",
        ) from e
    if dialect not in ("onig", "fancy"):
        raise ArgumentError(f"unknown dialect {dialect!r}: use 'onig' or 'fancy'", field="dialect")
    return _re_to_onig(src, dotall="m" if dialect == "onig" else "s")


def _unsupported(what: str) -> TokenizerFileError:
    return TokenizerFileError(
        f"the split pattern uses {what}, which Hugging Face tokenizers' regex engine (Oniguruma) reads "
        "differently from Python's regex; rewrite the pattern without it to export a tokenizer.json",
        field="pattern",
        component=what,
    )


def _esc(e: str) -> str:
    """Oniguruma reads ``\\xHH`` as one raw byte (invalid UTF-8 above 0x7F): write ``\\u00HH``."""
    if e.startswith("\\x") and int(e[2:], 16) >= 0x80:
        return "\\u00" + e[2:]
    return e


def _re_to_onig(src: str, *, dotall: str = "m") -> str:
    """stdlib-``re`` syntax (as :func:`to_stdlib_re` writes it) -> the common syntax."""
    out: list[str] = []
    groups: list[int] = []  # out-index where each open group starts
    atom = -1  # out-index where the last complete atom starts
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            e = src[i + 1] if i + 1 < n else ""
            if e == "U":
                cp = int(src[i + 2 : i + 10], 16)
                atom = len(out)
                out.append(chr(cp) if cp >= 0x10000 else f"\\u{cp:04x}")
                i += 10
                continue
            if e in _ESCAPE_ANCHORS:
                atom = len(out)
                out.append(_ESCAPE_ANCHORS[e])
                i += 2
                continue
            if e in _ESCAPE_KEEP:
                j = i + 2
                if e == "x":
                    j = i + 4
                elif e == "u":
                    j = i + 6
                atom = len(out)
                out.append(_esc(src[i:j]))
                i = j
                continue
            raise _unsupported(f"the escape \\{e}")
        if c == "[":
            j = i + 1
            buf = ["["]
            if j < n and src[j] == "^":
                buf.append("^")
                j += 1
            if j < n and src[j] == "]":
                buf.append(r"\]")
                j += 1
            while j < n and src[j] != "]":
                ch = src[j]
                if ch == "\\":
                    e = src[j + 1]
                    if e == "U":
                        cp = int(src[j + 2 : j + 10], 16)
                        buf.append(chr(cp) if cp >= 0x10000 else f"\\u{cp:04x}")
                        j += 10
                        continue
                    if e not in _ESCAPE_KEEP or e in "AZ":
                        raise _unsupported(f"the escape \\{e} in a character class")
                    k = j + 2 if e not in "xu" else j + (4 if e == "x" else 6)
                    buf.append(_esc(src[j:k]))
                    j = k
                    continue
                if ch in "[&":
                    buf.append("\\" + ch)
                else:
                    buf.append(ch)
                j += 1
            if j >= n:
                raise _unsupported("an unterminated character class")
            buf.append("]")
            atom = len(out)
            out.append("".join(buf))
            i = j + 1
            continue
        if c == "(":
            groups.append(len(out))
            if src.startswith("(?P<", i):
                out.append("(?<")
                i += 4
                continue
            if src.startswith("(?P=", i) or src.startswith("(?P>", i):
                raise _unsupported("a named back-reference")
            if src.startswith("(?", i):
                m = re.match(r"\(\?([a-zA-Z-]*)([:)])", src[i:])
                if m and m.group(1):
                    flags = m.group(1)
                    if flags == "s" and m.group(2) == ":":
                        out.append(f"(?{dotall}:")  # Ruby's m flag is Python's s (dot matches newline)
                        i += len(m.group(0))
                        continue
                    raise _unsupported(f"the inline flag (?{flags}")
                if src.startswith("(?(", i):
                    raise _unsupported("a conditional group")
            out.append("(")
            i += 1
            continue
        if c == ")":
            if not groups:
                raise _unsupported("an unbalanced parenthesis")
            atom = groups.pop()
            out.append(")")
            i += 1
            continue
        if c in _CHAR_ANCHORS:
            atom = len(out)
            out.append(_CHAR_ANCHORS[c])
            i += 1
            continue
        if c == "{":
            m = re.match(r"\{(\d*)(,?)(\d*)\}", src[i:])
            if m and (m.group(1) or m.group(3)):
                q = m.group(0)
                j = i + len(q)
                if j < n and src[j] == "+":
                    if atom < 0:
                        raise _unsupported("a quantifier with nothing to repeat")
                    body = "".join(out[atom:])
                    del out[atom:]
                    out.append(f"(?>{body}{q})")
                    i = j + 1
                    continue
                out.append(q)
                i = j
                continue
            out.append(r"\{")
            atom = len(out) - 1
            i += 1
            continue
        if c in "|":
            atom = -1
            out.append(c)
            i += 1
            continue
        if c in "*+?":
            out.append(c)
            i += 1
            continue
        if c == "#" or c in " \t\n":  # no verbose mode after to_stdlib_re; these are literals
            atom = len(out)
            out.append("\\" + c if c == "#" else {" ": " ", "\t": r"\t", "\n": r"\n"}[c])
            i += 1
            continue
        atom = len(out)
        out.append(c)
        i += 1
    if groups:
        raise _unsupported("an unbalanced parenthesis")
    return "".join(out)


def _covers_everything(pattern: str | None) -> bool:
    """True for the OpenAI patterns: every character is inside some match."""
    return pattern in PATTERNS.values()


def _check_compiles(onig: str) -> None:
    try:
        import tokenizers
    except ImportError:
        return  # nothing to check against here (Pyodide); the tests do it on CPython
    try:
        tokenizers.Regex(onig)
    except Exception as e:  # tokenizers raises a plain Exception for a bad pattern
        raise TokenizerFileError(
            f"Hugging Face tokenizers cannot compile the rewritten split pattern: {e}",
            field="pattern",
            component="pattern",
        ) from e


#: Characters whose NFKC in ``tokenizers`` (its Unicode tables are older:
#: measured with tokenizers 0.23.3) differs from Python's ``unicodedata``
#: (measured on Python 3.11, Unicode 14.0): ``tokenizers`` leaves them as they
#: are, Python decomposes them (U+32FF SQUARE ERA NAME REIWA -> "令和",
#: U+A7F2 MODIFIER LETTER CAPITAL C -> "C", ...). NFC: none.
_HF_NFKC_LAGGING = (
    (0x32FF, 0x32FF),
    (0xA7F2, 0xA7F4),
    (0xAB69, 0xAB69),
    (0x10781, 0x10785),
    (0x10787, 0x107B0),
    (0x107B2, 0x107BA),
    (0x1F16C, 0x1F16C),
    (0x1FBF0, 0x1FBF9),
)


@functools.lru_cache(maxsize=4)
def _lagging_chars(form: UnicodeForm) -> list[str]:
    """Characters whose ``form`` normalization ``tokenizers`` does differently from
    Python: the table above, plus (when ``tokenizers`` is installed here) every
    character with a decomposition that the installed ``tokenizers`` maps differently."""
    import unicodedata

    chars = {chr(cp) for lo, hi in _HF_NFKC_LAGGING for cp in range(lo, hi + 1)} if form == "NFKC" else set()
    chars = {c for c in chars if unicodedata.normalize(form, c) != c}
    try:
        from tokenizers import normalizers
    except ImportError:
        return sorted(chars)
    hf = getattr(normalizers, form)()
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        if unicodedata.decomposition(c) and hf.normalize_str(c) != unicodedata.normalize(form, c):
            chars.add(c)
    return sorted(chars)


def _normalizer(form: str | None) -> dict[str, Any] | None:
    """The normalizer: ``form``, after replacing each character whose
    normalization ``tokenizers``' older Unicode tables lack by Python's full
    decomposition of it (then normalizing gives what Python gives)."""
    import unicodedata

    if form is None:
        return None
    decomposed: UnicodeForm = "NFKD" if form == "NFKC" else "NFD"
    fixes = [
        {"type": "Replace", "pattern": {"String": c}, "content": unicodedata.normalize(decomposed, c)}
        for c in _lagging_chars(cast(UnicodeForm, form))  # (a Tokenizer's normalization: NFC or NFKC)
    ]
    if not fixes:
        return {"type": form}
    return {"type": "Sequence", "normalizers": [*fixes, {"type": form}]}


def _checked_vocab(tok) -> dict[str, int]:
    if not tok.is_trained:
        raise ArgumentError(
            f"{tok.name!r} is a rank-based encoding (tiktoken's merge rule); to_tokenizer_json() exports "
            "trained tokenizers (minbpe's rule, which is Hugging Face's)",
            field="tokenizer",
        )
    specials = tok.special_tokens
    special_ids = set(specials.values())
    vocab: dict[str, int] = {}
    for i, b in sorted(tok.vocab.items()):
        if i in special_ids:
            continue
        s = gpt2_view(b)
        if s in vocab:
            raise ArgumentError(
                f"ids {vocab[s]} and {i} both stand for the bytes {b!r}; a tokenizer.json vocabulary maps each "
                "token text to one id, so this tokenizer cannot be exported exactly (save it with to_json())",
                field="tokenizer",
            )
        vocab[s] = i
    for s, i in specials.items():
        if s in vocab:
            raise ArgumentError(
                f"special token {s!r} (id {i}) has the same text as ordinary token {vocab[s]} in the "
                "tokenizer.json alphabet; Hugging Face would give it that id. Rename the special token",
                field="special_tokens",
            )
    return vocab


def to_tokenizer_json(tok, *, indent: int | None = 2) -> str:
    """A Hugging Face ``tokenizer.json`` for a trained :class:`bytepair.Tokenizer`.

    Args:
        tok: a trained tokenizer (built from merges: :func:`bytepair.train`,
            :func:`bytepair.from_json`, ``Tokenizer.from_merges``).
        indent: JSON indentation (``None``: one line).

    Returns:
        The JSON text. ``tokenizers.Tokenizer.from_str(text)`` (or
        ``from_file``) encodes with the same ids as ``tok.encode_ordinary`` on
        text without special-token strings, as ``tok.encode(text,
        allowed_special="all")`` on any text, and decodes the same (with
        ``skip_special_tokens=False`` for special tokens). See the module
        docstring for how each part is kept exact.

    Raises:
        ArgumentError: ``tok`` is a rank-based encoding (``get_encoding``;
            tiktoken's merge rule is not Hugging Face's); two ids have the same
            bytes; a special token's text equals an ordinary token's spelling.
        TokenizerFileError: the split pattern uses syntax that Hugging Face's
            regex engine would read differently (``component`` names it).
    """
    vocab = _checked_vocab(tok)
    vocab_view = {i: s for s, i in vocab.items()}
    merges = [[vocab_view[a], vocab_view[b]] for (a, b) in tok.merges]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    if tok.pattern is None:
        pre_tokenizer: dict[str, Any] = byte_level
    else:
        onig = onig_pattern(tok.pattern)
        _check_compiles(onig)
        if _covers_everything(tok.pattern):
            split = {"type": "Split", "pattern": {"Regex": onig}, "behavior": "Isolated", "invert": False}
        else:
            split = {"type": "Split", "pattern": {"Regex": onig}, "behavior": "Removed", "invert": True}
        pre_tokenizer = {"type": "Sequence", "pretokenizers": [split, byte_level]}
    # bytepair normalizes first, then finds special tokens: with a normalizer,
    # Hugging Face must match them in the normalized text too (normalized: true)
    normalized = tok.normalization is not None
    added = [
        {
            "id": i,
            "content": s,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": normalized,
            "special": True,
        }
        for s, i in sorted(tok.special_tokens.items(), key=lambda kv: kv[1])
    ]
    data = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": _normalizer(tok.normalization),
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": vocab,
            "merges": merges,
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


def to_tokenizer_config_json(tok, *, model_max_length: int = 1_000_000_000_000_000_019_884_624_838_656) -> str:
    """The ``tokenizer_config.json`` that goes beside :func:`to_tokenizer_json`'s file.

    ``transformers.AutoTokenizer.from_pretrained(folder)`` then builds a
    ``PreTrainedTokenizerFast`` with the same ids. Decoding keeps spaces as
    they are (``clean_up_tokenization_spaces: false``); no BOS/EOS is added
    (``post_processor`` is null). A special token named ``<|endoftext|>`` is
    also declared as ``eos_token``, the others as ``additional_special_tokens``
    (so ``all_special_tokens`` lists them and ``skip_special_tokens`` drops them).

    Args:
        tok: a trained tokenizer.
        model_max_length: written as is; the default is ``transformers``'
            "no limit" value (``VERY_LARGE_INTEGER``, int(1e30)).

    Returns:
        The JSON text.

    Raises:
        ArgumentError: as :func:`to_tokenizer_json`.
    """
    _checked_vocab(tok)
    specials = tok.special_tokens
    data: dict[str, Any] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "clean_up_tokenization_spaces": False,
        "model_max_length": model_max_length,
        "added_tokens_decoder": {
            str(i): {
                "content": s,
                "lstrip": False,
                "normalized": tok.normalization is not None,
                "rstrip": False,
                "single_word": False,
                "special": True,
            }
            for s, i in sorted(specials.items(), key=lambda kv: kv[1])
        },
    }
    if "<|endoftext|>" in specials:
        data["eos_token"] = "<|endoftext|>"
    others = [s for s, _ in sorted(specials.items(), key=lambda kv: kv[1]) if s != "<|endoftext|>"]
    if others:
        data["additional_special_tokens"] = others
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _tiktoken_rule_matches(tok) -> None:
    """Raise unless tiktoken's rule (lowest rank of the joined bytes) gives
    minbpe's merges: each token's bytes, encoded with only the lower ranks,
    must come out as exactly its merge pair."""
    from .. import bpe

    vocab = tok.vocab
    ranks = {b: i for i, b in vocab.items() if i not in set(tok.special_tokens.values())}
    for (a, b), new in tok.merges.items():
        parts = bpe.encode_piece_ranks(vocab[new], _Below(ranks, new))
        if parts != [a, b]:
            raise ArgumentError(
                f"token {new} ({vocab[new]!r}) is merge ({a}, {b}), but tiktoken's rule (lowest rank of the "
                f"joined bytes) would build it from {parts}; tiktoken would encode some text differently. "
                "Use the tokenizer.json export (Hugging Face applies merges as bytepair does)",
                field="tokenizer",
            )


class _Below(dict):
    """The ranks below ``limit`` (a dict-like view for :func:`bpe.encode_piece_ranks`)."""

    def __init__(self, ranks: dict[bytes, int], limit: int) -> None:
        super().__init__()
        self._r, self._limit = ranks, limit

    def get(self, key, default=None):
        r = self._r.get(key)
        return r if r is not None and r < self._limit else default

    def __getitem__(self, key):
        r = self.get(key)
        if r is None:
            raise KeyError(key)
        return r

    def __contains__(self, key) -> bool:
        return self.get(key) is not None


#: What stands for "no pre-tokenizer" in tiktoken, which always splits: one
#: match from the first character to the last (``[\s\S]`` = any character).
NO_SPLIT_PAT_STR = r"[\s\S]+"


def _tiktoken_pat_str(pattern: str | None) -> str:
    if pattern is None:
        return NO_SPLIT_PAT_STR
    if _covers_everything(pattern):
        return pattern  # tiktoken's own patterns, as tiktoken writes them
    # tiktoken runs fancy-regex, whose $ is the very end and whose Unicode
    # tables are its own: the rewrite for Oniguruma is also what fancy-regex reads alike
    return onig_pattern(pattern, dialect="fancy")


def tiktoken_encoding_kwargs(tok, *, check: bool = True) -> dict[str, Any]:
    """The keyword arguments of ``tiktoken.Encoding`` for ``tok``.

    ``tiktoken.Encoding(**tiktoken_encoding_kwargs(tok))`` encodes like
    ``tok``; the ``.tiktoken`` file (:meth:`bytepair.Tokenizer.to_tiktoken`)
    holds only ``mergeable_ranks``, so the pattern and special tokens have to
    be given beside it: ``tiktoken.Encoding(name, pat_str=..., mergeable_ranks=
    tiktoken.load.load_tiktoken_bpe(path, expected_hash=sha256_hex),
    special_tokens=...)``. Give ``expected_hash`` (the SHA-256 of the file):
    ``load_tiktoken_bpe`` caches every file it reads under a key made from the
    path alone (``$TMPDIR/data-gym-cache``), so a new file with an old name
    would otherwise load the old ranks.

    Args:
        tok: any :class:`bytepair.Tokenizer` (a real encoding or a trained one).
        check: for a trained tokenizer, verify that tiktoken's merge rule gives
            the same tokens as minbpe's (each token's bytes, encoded with the
            lower ranks only, must come out as its merge pair).

    Returns:
        ``{"name": str, "pat_str": str, "mergeable_ranks": dict[bytes, int],
        "special_tokens": dict[str, int]}``. ``pat_str`` for ``"none"`` is
        :data:`NO_SPLIT_PAT_STR`; the OpenAI patterns as tiktoken spells them;
        a custom regex rewritten by :func:`onig_pattern` (tiktoken's
        fancy-regex, like Oniguruma, reads ``$`` and Unicode classes
        differently from Python's ``regex``).

    Raises:
        TokenizerFileError: a custom pattern :func:`onig_pattern` cannot rewrite.
        ArgumentError: ``check`` found a token tiktoken would build differently;
            normalization is set (tiktoken does not normalize: normalize the
            text yourself, or leave this out of tiktoken).
    """
    if tok.normalization is not None:
        raise ArgumentError(
            f"{tok.name!r} normalizes text ({tok.normalization}); tiktoken cannot. Call "
            f"unicodedata.normalize({tok.normalization!r}, text) before tiktoken's encode, or export tokenizer.json",
            field="normalization",
        )
    if check and tok.is_trained:
        _tiktoken_rule_matches(tok)
    return {
        "name": tok.name,
        "pat_str": _tiktoken_pat_str(tok.pattern),
        "mergeable_ranks": tok.mergeable_ranks(),
        "special_tokens": tok.special_tokens,
    }


#: The file names the snippets refer to.
FILE_NAMES = {"hf": "tokenizer.json", "tiktoken": "{name}.tiktoken", "bytepair": "{name}.json"}


def load_snippets(tok) -> dict[str, str]:
    """Short "load it in Python" snippets for each download format of ``tok``.

    Args:
        tok: a :class:`bytepair.Tokenizer` (its name, pattern and special
            tokens are written into the snippets).

    Returns:
        ``{"tokenizers": str, "transformers": str, "tiktoken": str,
        "bytepair": str}``: Python source that loads the matching file (names
        in :data:`FILE_NAMES`: ``tokenizer.json``, ``<name>.tiktoken``,
        ``<name>.json``) and encodes a sentence. The page shows them as they
        are. A format that cannot hold ``tok`` exactly gets a comment saying
        why instead (e.g. tiktoken and normalization). The tiktoken snippet
        carries the exact ``pat_str`` (:func:`tiktoken_encoding_kwargs`), which
        for a custom regex is the long rewritten form.
    """
    name = tok.name
    tk_file = FILE_NAMES["tiktoken"].format(name=name)
    bp_file = FILE_NAMES["bytepair"].format(name=name)
    hf_problem = tk_problem = None
    try:
        _checked_vocab(tok)
        if tok.pattern is not None:
            onig_pattern(tok.pattern)
    except (ArgumentError, TokenizerFileError) as e:
        hf_problem = str(e)
    try:
        pat = tiktoken_encoding_kwargs(tok)["pat_str"]
        # tiktoken caches every file it loads by its path (in $TMPDIR/data-gym-cache): without
        # the hash, a newer download under the same name would load the old ranks
        tk_hash = hashlib.sha256(tok.to_tiktoken()).hexdigest()
    except (ArgumentError, TokenizerFileError, ValueError) as e:
        tk_problem, pat, tk_hash = str(e), "", ""
    snippets = {
        "tokenizers": (
            "from tokenizers import Tokenizer\n\n"
            'tok = Tokenizer.from_file("tokenizer.json")\n'
            'ids = tok.encode("hello world").ids\n'
            "print(ids, tok.decode(ids, skip_special_tokens=False))\n"
        ),
        "transformers": (
            "from transformers import PreTrainedTokenizerFast\n\n"
            'tok = PreTrainedTokenizerFast(tokenizer_file="tokenizer.json", clean_up_tokenization_spaces=False)\n'
            'ids = tok.encode("hello world")\n'
            "print(ids, tok.decode(ids))\n"
        ),
        "tiktoken": (
            "import tiktoken\n"
            "from tiktoken.load import load_tiktoken_bpe\n\n"
            "enc = tiktoken.Encoding(\n"
            f"    name={name!r},\n"
            f"    pat_str={pat!r},\n"
            f"    mergeable_ranks=load_tiktoken_bpe({tk_file!r}, expected_hash={tk_hash!r}),\n"
            f"    special_tokens={tok.special_tokens!r},\n"
            ")\n"
            'ids = enc.encode("hello world")\n'
            "print(ids, enc.decode(ids))\n"
        ),
        "bytepair": (
            "import bytepair\n\n"
            f"with open({bp_file!r}, encoding='utf-8') as f:\n"
            "    tok = bytepair.from_json(f.read())\n"
            'ids = tok.encode("hello world")\n'
            "print(ids, tok.decode(ids))\n"
        ),
    }
    if hf_problem:
        note = (
            "# This tokenizer cannot be written as tokenizer.json exactly:\n# " + hf_problem.replace("\n", " ") + "\n"
        )
        snippets["tokenizers"] = snippets["transformers"] = note
    if tk_problem:
        snippets["tiktoken"] = (
            "# tiktoken cannot load this tokenizer exactly:\n# " + tk_problem.replace("\n", " ") + "\n"
        )
    return snippets
