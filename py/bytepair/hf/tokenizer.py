"""Hugging Face ``tokenizer.json`` files, encoded id-for-id as ``tokenizers`` does.

:func:`from_tokenizer_json` reads a ``tokenizer.json`` (optionally with its
``tokenizer_config.json``) into an :class:`HFTokenizer`. The pipeline is
``tokenizers``' (huggingface/tokenizers, ``tokenizers/src/tokenizer/mod.rs``):

1. added tokens that are not ``normalized`` are cut out of the raw text
   (leftmost-longest, with their ``lstrip``/``rstrip``/``single_word`` rules);
2. each remaining segment is normalized, then ``normalized`` added tokens are
   cut out of it;
3. the pre-tokenizer splits what is left into pieces;
4. the BPE model encodes each piece: its characters (or, for byte-level
   models, its UTF-8 bytes spelled as GPT-2 characters) are looked up in the
   vocabulary (``byte_fallback``: a missing character becomes ``<0xXX>``
   tokens; else ``unk_token``), then the adjacent pair with the lowest merge
   rank is merged, leftmost on ties, until no pair has a merge
   (``ignore_merges``: a piece that is itself a token is that token);
5. with ``add_special_tokens`` the post-processor adds BOS etc.

Only ``type: "BPE"`` models and the components in
:data:`bytepair.hf.components.SUPPORTED` load; anything else raises
:class:`bytepair.errors.TokenizerFileError` with the JSON path of the
component, never a tokenizer that would give wrong ids.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import operator
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Literal, overload

from ..errors import ArgumentError, TokenizerFileError
from ..formats.jsonguard import read_json_object
from ..offsets import chars_to_utf16
from ..protocol import LIMIT_BATCH, PipelineKind, check_count, count_within
from ..split.pretokenize import compile_pattern
from ..surrogates import fix_surrogates
from ..tokenizer import TokenSpan
from . import added as hf_added
from . import components as hc

__all__ = ["Encoding", "HFTokenizer", "from_tokenizer_json"]

_NO = 1 << 62
_LONG_WORD = 64
_CACHE_MAX_ENTRIES = 200_000
_CACHE_MAX_CHARS = 256
_CUT_MIN = 24  # pieces longer than this (characters) are cut where that is exact (see _cutter)
_LAZY_TEXT_MAX = 50_000  # a longer text loads a compact model's whole tables first (see hf_lazy)


@functools.lru_cache(maxsize=4096)
def _is_word_char(ch: str) -> bool:
    """tokenizers' single_word rule uses Rust regex ``\\w``: Unicode word characters
    (letters, marks, decimal digits, connector punctuation, joiners), as ``regex``'s
    ``\\w`` (on CPython; translated for ``re`` in Pyodide), not stdlib ``re``'s."""
    return bool(_word_finder().findall(ch))


@functools.lru_cache(maxsize=1)
def _word_finder():
    return compile_pattern(r"\w")


_WS = hc.WHITE_SPACE


def _token_content(v: Any) -> str | None:
    if isinstance(v, str):
        return v
    if isinstance(v, dict) and isinstance(v.get("content"), str):
        return v["content"]
    return None


class _AddedMatcher:
    """Finds added tokens leftmost-longest (as ``tokenizers``' Aho-Corasick,
    ``MatchKind::LeftmostLongest``): the leftmost position where any of
    ``words`` starts, the longest word starting there, then on after it.

    Cheap to build (one pass, no regular-expression compile: a trie regex over
    Gemma 3's 6,415 added tokens took 60-300 ms to compile, most of a model's
    first count): a character class finds where a word may start, then the
    lengths of the words sharing the text's next two characters are tried,
    longest first, against a set.
    """

    __slots__ = ("_lens", "_starts", "_words")

    def __init__(self, words: Iterable[str]) -> None:
        self._words = set(words)
        self._words.discard("")
        # key: a word's first two characters (or the whole word when it is one character);
        # value: the lengths to try there, longest first (one-character words under their own key).
        # The distinct (key, length) pairs are made in C, by set/map/zip: a loop per word took
        # ~30 ms of Gemma 3's load in Pyodide (6,415 words, ~100 distinct pairs).
        pairs = set(zip(map(operator.itemgetter(slice(0, 2)), self._words), map(len, self._words)))
        lens: dict[str, list[int]] = {}
        for key, n in sorted(pairs, key=operator.itemgetter(1), reverse=True):
            lens.setdefault(key, []).append(n)
        self._lens = lens
        firsts = "".join(sorted(map(re.escape, set(map(operator.itemgetter(0), self._words)))))
        self._starts = re.compile(f"[{firsts}]").search if firsts else None

    def __bool__(self) -> bool:
        return bool(self._words)

    def finditer(self, s: str) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each match in ``s``, left to right, not overlapping."""
        words, lens, search = self._words, self._lens, self._starts
        if search is None:
            return
        pos, size = 0, len(s)
        while (m := search(s, pos)) is not None:
            i = m.start()
            pos = i + 1
            for n in lens.get(s[i : i + 2], ()):
                if i + n <= size and s[i : i + n] in words:
                    pos = i + n
                    yield i, pos
                    break
            else:
                if s[i] in words:
                    yield i, pos


def _added_matcher(words: Iterable[str]) -> _AddedMatcher | None:
    m = _AddedMatcher(words)
    return m if m else None


#: ``(special, lstrip, rstrip, single_word, normalized)`` (the order of :data:`bytepair.hf.added.FLAGS`)
#: for each value of an added token's flag bits, looked up once rather than tested bit by bit.
_FLAG_VALUES = [tuple(f & bit != 0 for _, bit in hf_added.FLAGS) for f in range(32)]


def _parse_added(added: list) -> tuple[list[str], list[int], list[int]]:
    """``tokenizer.json``'s ``added_tokens`` list as columns ``(content, ids, flags)``
    (:mod:`bytepair.hf.added`; ``normalized`` defaults to not ``special``, as ``tokenizers``).

    Raises:
        TokenizerFileError: an entry without an ``id`` or a ``content`` (``where``: its JSON path).
    """
    content: list[str] = []
    ids: list[int] = []
    flags: list[int] = []
    for k, d in enumerate(added):
        where = f"added_tokens[{k}]"
        try:
            ids.append(int(d["id"]))
            content.append(str(d["content"]))
        except (KeyError, TypeError, ValueError) as e:
            raise TokenizerFileError(f'added token at {where} needs an "id" and a "content"', where=where) from e
        special = bool(d.get("special", False))
        f = special | bool(d.get("lstrip", False)) << 1 | bool(d.get("rstrip", False)) << 2
        f |= bool(d.get("single_word", False)) << 3 | bool(d.get("normalized", not special)) << 4
        flags.append(f)
    return content, ids, flags


def _resolve_added(
    content: list[str], flags: list[int], vocab: dict[str, int], next_id: int
) -> tuple[list[str], list[int], list[int]]:
    """The added tokens as ``tokenizers`` keeps them when it reads the file
    (``AddedVocabulary::add_tokens``): each id is that of the same content added
    before, else of the model's token with that content, else the next id from
    ``next_id`` on (the file's ``id`` is not used: ``tokenizers`` only warns when it
    differs); empty contents dropped; one token per id (the last one given, at the
    place of the first). Returns the columns ``(content, ids, flags)`` of those tokens.

    Distinct contents whose ids come out distinct (every real file) are resolved by
    C loops (``map``, ``list.index``): a Python loop over Gemma 3's 6,415 added tokens
    took ~40 ms of its load in Pyodide.
    """
    distinct = set(content)
    if len(distinct) == len(content) and "" not in distinct:
        ids: list[Any] = list(map(vocab.get, content))
        at = 0
        for new_id in range(next_id, next_id + ids.count(None)):
            at = ids.index(None, at)
            ids[at] = new_id
        if len(set(ids)) == len(ids):
            return list(content), ids, list(flags)
    by_content: dict[str, int] = {}
    by_id: dict[int, tuple[str, int]] = {}
    for c, f in zip(content, flags):
        if not c:
            continue
        tid = by_content.get(c)
        if tid is None:
            tid = vocab.get(c)
        if tid is None:
            tid = next_id
            next_id += 1
        by_content[c] = tid
        by_id[tid] = (c, f)
    return [c for c, _ in by_id.values()], list(by_id), [f for _, f in by_id.values()]


def _added_info(content: str, tid: int, flags: int) -> dict:
    """One added token as :attr:`HFTokenizer.added_tokens` gives it."""
    special, lstrip, rstrip, single_word, normalized = _FLAG_VALUES[flags & 31]
    return {
        "content": content,
        "id": tid,
        "lstrip": lstrip,
        "normalized": normalized,
        "rstrip": rstrip,
        "single_word": single_word,
        "special": special,
    }


def _check_units(units: str) -> None:
    """Span units: characters (``"chars"``) or UTF-16 code units (``"utf16"``)."""
    if units not in ("chars", "utf16"):
        raise ArgumentError(f'units must be "chars" or "utf16", got {units!r}', field="units")


class Encoding:
    """One text's tokens, shaped like ``tokenizers.Encoding`` (the reading part).

    ``ids``: token ids; ``tokens``: the vocabulary's spelling of each
    (``"Ġhello"``); ``offsets``: ``(start, end)`` in *characters* of the text
    given, per token (tokens the post-processor adds: ``(0, 0)``; fragments of
    one character share its whole span, where ``tokenizers`` may give a part);
    ``special_tokens_mask``: 1 for the tokens the post-processor adds (BOS ...),
    as ``tokenizers`` (not for added tokens found in the text); ``attention_mask`` all 1 and ``type_ids`` all 0 (one
    sequence, no padding). ``len(enc)`` is the number of tokens.

    Built by :meth:`HFTokenizer.encode` with ``return_encoding=True`` and by
    :meth:`HFTokenizer.encode_batch`.
    """

    __slots__ = ("ids", "offsets", "special_tokens_mask", "tokens")

    def __init__(
        self, ids: list[int], tokens: list[str], offsets: list[tuple[int, int]], special_tokens_mask: list[int]
    ) -> None:
        self.ids = ids
        self.tokens = tokens
        self.offsets = offsets
        self.special_tokens_mask = special_tokens_mask

    @property
    def attention_mask(self) -> list[int]:
        """``[1] * len(self)`` (no padding)."""
        return [1] * len(self.ids)

    @property
    def type_ids(self) -> list[int]:
        """``[0] * len(self)`` (one sequence)."""
        return [0] * len(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"Encoding(num_tokens={len(self.ids)}, attributes=[ids, tokens, offsets, special_tokens_mask])"


class HFTokenizer:
    """A BPE tokenizer read from a Hugging Face ``tokenizer.json``.

    Build one with :func:`bytepair.from_tokenizer_json`. Ids and decoded text
    are those of ``tokenizers.Tokenizer.from_file(path)`` for the same file.

    Implements :class:`bytepair.protocol.TokenizerLike`. Its pipeline stages, public inside the
    package (used by :meth:`encode` itself, :mod:`bytepair.hf.chunked` and
    :mod:`bytepair.teach.explain`): :meth:`check_text`, :meth:`split_added` (added tokens, raw then
    normalized), :attr:`normalizer`, :attr:`pre_tokenizer`, :meth:`model_ids` (the model),
    :meth:`post_process` / :attr:`template`, and :meth:`run_stages` (all but the last, in order);
    around them :attr:`needs_align`, :meth:`piece_cutter`, :meth:`prepare_tables` and
    :attr:`tables_loaded`. The normalizer and pre-tokenizer are stage objects
    (:mod:`bytepair.hf.components`) that also answer what stepped counts ask of them (offsets
    kept, a Unicode normal form, leading Isolated splits); and the model's parts
    :attr:`model_vocab`, :meth:`merge_ranks`, :meth:`model_symbols`, :attr:`model_options` (token
    stories). The compact format (:mod:`bytepair.hf.compact`) reads it through :attr:`file_settings`,
    :attr:`model_vocab`, :meth:`merge_ranks`, :attr:`model_options`, :attr:`added_columns`,
    :meth:`glued_before_space` and :meth:`load_all_tables`, and builds one with :meth:`from_parts`.
    """

    #: Capabilities (:mod:`bytepair.protocol`): the post-processor adds BOS/EOS; added-token
    #: strings in the text are always one token (as ``tokenizers``); stepped counts; a pipeline
    #: of stages (see above); read-only (bytepair writes no ``tokenizer.json`` of a loaded file).
    adds_special_tokens: ClassVar[bool] = True
    special_tokens_in_text: ClassVar[Literal["switch", "always", "never"]] = "always"
    counts_in_steps: ClassVar[bool] = True
    pipeline: ClassVar[PipelineKind] = "stages"
    writes_files: ClassVar[bool] = False

    def __init__(
        self,
        data: dict,
        *,
        config: dict | None = None,
        name: str | None = None,
        _lazy: Any = None,
        _added_columns: tuple | None = None,
    ) -> None:
        """Prefer :func:`from_tokenizer_json`. ``data``: the parsed ``tokenizer.json``.
        (``_lazy``, ``_added_columns``: :meth:`from_parts`'s ``tables`` and ``added_columns``.)

        Raises:
            TokenizerFileError: an unsupported model, component or option, or a
                malformed file (``where`` names the JSON path).
        """
        self._config: dict = dict(config or {})
        # from_parts: the config's added_tokens_decoder, rebuilt from these columns when read
        self._config_decoder: tuple | None = None
        self._added_columns = _added_columns  # kept for the compact format (added_columns)
        self.name = name or str(self._config.get("name_or_path") or "tokenizer.json")
        model = data.get("model")
        if not isinstance(model, dict):
            raise TokenizerFileError('tokenizer.json has no "model" object', where="model")
        mtype = model.get("type", "BPE" if "merges" in model else None)
        if mtype != "BPE":
            raise TokenizerFileError(
                f"unsupported model {mtype!r}: bytepair reads BPE models only (not WordPiece, Unigram or WordLevel)",
                where="model.type",
                component=str(mtype),
            )
        dropout = model.get("dropout")
        if dropout not in (None, 0, 0.0):
            raise TokenizerFileError(
                f"BPE dropout ({dropout}) makes encoding random; bytepair reads dropout-free BPE only",
                where="model.dropout",
                component="BPE",
            )
        vocab = model.get("vocab")
        if not isinstance(vocab, dict):
            raise TokenizerFileError("model.vocab must be an object {token: id}", where="model.vocab", component="BPE")
        self._vocab: dict[str, int] = vocab
        # from_parts: the tables filled bucket by bucket (bytepair.hf.lazy), None once complete
        self._lazy: Any = _lazy
        self._merges_raw = model.get("merges") or []
        if not isinstance(self._merges_raw, list):
            raise TokenizerFileError("model.merges must be a list", where="model.merges", component="BPE")
        self._n_merges = len(self._merges_raw)
        self._data = data  # for file_settings: everything but the vocabulary and merges is kept as given
        self._ranks: dict[str, int] | None = None  # built on first encode
        self._sep = " "
        self._prefix = model.get("continuing_subword_prefix") or ""
        self._suffix = model.get("end_of_word_suffix") or ""
        self._plen = len(self._prefix)
        self._byte_fallback = bool(model.get("byte_fallback", False))
        self._ignore_merges = bool(model.get("ignore_merges", False))
        self._fuse_unk = bool(model.get("fuse_unk", False))
        self._unk = model.get("unk_token")
        if self._unk is not None and self._unk not in vocab:
            raise TokenizerFileError(
                f"unk_token {self._unk!r} is not in the vocabulary", where="model.unk_token", component="BPE"
            )
        self._model_info = {
            k: model.get(k)
            for k in (
                "unk_token",
                "continuing_subword_prefix",
                "end_of_word_suffix",
                "fuse_unk",
                "byte_fallback",
                "ignore_merges",
            )
        }

        self._normalizer_spec = data.get("normalizer")
        self._normalizer = hc.build_normalizer(self._normalizer_spec)
        self._pre = hc.build_pre_tokenizer(data.get("pre_tokenizer"))
        self._template, self._post_info = hc.build_post_processor(data.get("post_processor"))
        self._decoder_spec = data.get("decoder")
        self._decoder = hc.build_decoder(self._decoder_spec)
        for key in ("truncation", "padding"):
            if data.get(key) is not None:
                raise TokenizerFileError(
                    f"tokenizer.json sets {key}; bytepair encodes whole texts only (set it to null)",
                    where=key,
                    component=key,
                )

        if _added_columns is not None:
            content, flags = list(_added_columns[0]), list(_added_columns[2])
        else:
            added = data.get("added_tokens") or []
            if not isinstance(added, list):
                raise TokenizerFileError("added_tokens must be a list", where="added_tokens")
            content, _, flags = _parse_added(added)
        # contents of the tokens marked special, each one given (decode's skip_special_tokens)
        self._special_contents: set[str] = set(
            itertools.compress(content, map(operator.and_, flags, itertools.repeat(1)))
        )
        self._special_contents.discard("")
        # the added tokens as columns (content, id as tokenizers gives it, flag bits: bytepair.hf.added)
        next_id = _lazy.n_tokens if _lazy is not None else len(vocab)
        content, ids, flags = _resolve_added(content, flags, vocab, next_id)
        self._added_content: list[str] = content
        self._added_ids: list[int] = ids
        self._added_flags: list[int] = flags
        self._setup_added()

        stages = [st for st in (self._pre, self._decoder) if st is not None]
        self._byte_level = any(st.uses("ByteLevel") for st in stages)
        self._metaspace = any(st.uses("Metaspace") for st in stages) or (
            self._normalizer is not None and self._normalizer.replaces_space
        )
        # Metaspace's prepend_scheme "first" asks whether a piece starts at the text's start;
        # behind a normalizer (Strip, Prepend ...) only the offsets tell.
        self._needs_align = self._normalizer is not None and self._pre is not None and self._pre.asks_first
        # id -> token string, built on first use; a list when the ids are 0..n-1 (from_parts)
        self._vocab_r: dict[int, str] | list[str] | None = None
        self._cache: dict[str, list[int]] = {}
        self._cut: Any = False  # built on first use by _cutter()
        self._glued: str | None = None  # see glued_before_space()
        self._span_cache: dict[str, list[tuple[int, int, int]]] = {}
        if self._merges_raw:  # last: an unsupported component is the first thing to say
            self._check_merges()

    def _setup_added(self) -> None:
        """The lookups of the added-token columns: by id, by content (raw, then normalized:
        ``tokenizers``' two passes) and their matchers; all but the normalized tokens'
        entries made by C loops (``zip``, ``itertools.compress``)."""
        content, ids, flags = self._added_content, self._added_ids, self._added_flags
        n = len(ids)
        self._added_index: dict[int, int] = dict(zip(ids, range(n)))  # id -> position in the columns
        normalized = list(map(operator.and_, flags, itertools.repeat(16)))
        plain = list(map(operator.not_, normalized))
        # content -> position, for the tokens cut out of the raw text
        raw: dict[str, int] = dict(zip(itertools.compress(content, plain), itertools.compress(range(n), plain)))
        # tokenizers' id_to_token gives a normalized added token in its normalized
        # form (AddedVocabulary::simple_id_to_token, normalized_cache); decode uses it.
        self._added_strings: dict[int, str] = dict(zip(ids, content))
        norm: dict[str, int] = {}  # normalized content -> position
        for k in itertools.compress(range(n), normalized):
            s = self._normalizer(content[k], None)[0] if self._normalizer else content[k]
            norm[s] = k
            self._added_strings[ids[k]] = s
        self._raw_added, self._norm_added = raw, norm
        self._raw_matcher = _added_matcher(raw)
        self._norm_matcher = _added_matcher(norm)

    # ------------------------------------------------------------ properties
    @property
    def config(self) -> dict:
        """The ``tokenizer_config.json`` dict (``{}`` without one)."""
        if self._config_decoder is not None:  # from_parts: the copy of the added tokens it did not store
            cols, self._config_decoder = self._config_decoder, None
            self._config["added_tokens_decoder"] = hf_added.decoder(*cols)
        return self._config

    @property
    def n_vocab(self) -> int:
        """Largest token id + 1 (added tokens included)."""
        top = self._lazy.max_id if self._lazy is not None else max(self._vocab.values(), default=-1)
        return max(top, max(self._added_ids, default=top)) + 1

    @property
    def special_tokens(self) -> dict[str, int]:
        """``{content: id}`` of the added tokens marked ``special``."""
        return {c: i for c, i, f in zip(self._added_content, self._added_ids, self._added_flags) if f & 1}

    @property
    def added_tokens(self) -> list[dict]:
        """The added tokens as dicts (``id, content, special, lstrip, rstrip, single_word, normalized``)."""
        return list(map(_added_info, self._added_content, self._added_ids, self._added_flags))

    @property
    def bos_token(self) -> str | None:
        """The BOS token: the config's ``bos_token``, else the post-processor's first added token."""
        c = _token_content(self.config.get("bos_token"))
        if c is not None or "bos_token" in self.config:
            return c
        if self._template and isinstance(self._template[0], list) and self._template[0]:
            return self.token_string(self._template[0][0])
        return None

    @property
    def eos_token(self) -> str | None:
        """The EOS token: the config's ``eos_token``, else the post-processor's last added token (after the text)."""
        c = _token_content(self.config.get("eos_token"))
        if c is not None or "eos_token" in self.config:
            return c
        if self._template and isinstance(self._template[-1], list) and self._template[-1] and "A" in self._template:
            return self.token_string(self._template[-1][-1])
        return None

    @property
    def chat_template(self) -> str | dict[str, str] | None:
        """The config's chat template: a str, or ``{name: template}`` for a list of named templates, or None."""
        ct = self.config.get("chat_template")
        if isinstance(ct, list):
            return {d.get("name"): d.get("template") for d in ct if isinstance(d, dict)}  # type: ignore[misc]  # the config's own values, as given
        return ct if isinstance(ct, str) else None

    @property
    def pattern(self) -> str | None:
        """The first split regex of the pre-tokenizer (see ``describe()["split_patterns"]`` for all), or None."""
        pats = self.describe_patterns()
        return pats[0] if pats else None

    def describe_patterns(self) -> list[str]:
        """Every split pattern of the pre-tokenizer, in order (regex sources, or literal strings for string splits)."""
        return self.describe()["split_patterns"]

    def __repr__(self) -> str:
        return f"<HFTokenizer {self.name!r} n_vocab={self.n_vocab}>"

    # ------------------------------------------------------ pipeline stages
    # Public inside the package: encode runs these, and so do bytepair.hf.chunked (stepped counts,
    # first spans) and bytepair.teach.explain (token stories).
    @property
    def normalizer(self) -> hc.Normalizer | None:
        """The normalize stage, ``normalizer(segment, align) -> (segment, align)`` (``align``: one
        ``(start, end)`` of the raw text per character, or None), or None without a normalizer; it
        also says what it does to offsets (:class:`bytepair.hf.components.Normalizer`)."""
        return self._normalizer

    @property
    def needs_align(self) -> bool:
        """Whether the pre-tokenizer needs each piece's offsets (Metaspace's ``prepend_scheme:
        "first"`` behind a normalizer): :meth:`run_stages` must then track ``align``."""
        return bool(self._needs_align)

    @property
    def pre_tokenizer(self) -> hc.PreTokenizer | None:
        """The pre-tokenize stage, ``pre_tokenizer(pieces) -> pieces`` (``(text, align, first)``
        triples; each piece maps on its own), or None without a pre-tokenizer; it also says how
        its first splits may be walked (:class:`bytepair.hf.components.PreTokenizer`)."""
        return self._pre

    @property
    def template(self) -> list | None:
        """The post-processor's template for one sequence: items ``"A"`` (the text's ids) or
        lists of ids (BOS, EOS ...), or None without one (:meth:`post_process`)."""
        return self._template

    def split_added(self, text: str, *, normalized: bool = False) -> list[tuple[int, int, int | None]]:
        """The split-added-tokens stage: ``text`` cut into ``(start, end, id)`` (an added token)
        and ``(start, end, None)`` (text between them), in characters of ``text``. ``normalized``:
        the tokens matched after the normalizer (``normalized: true``), else those matched in
        the raw text."""
        if normalized:
            return self._find_added(text, self._norm_matcher, self._norm_added)
        return self._find_added(text, self._raw_matcher, self._raw_added)

    def piece_cutter(self, w: str) -> Callable[[str], list[str]] | None:
        """For a long piece ``w`` of a model whose long pieces are cut where no token can span the
        cut (see :meth:`model_ids`), the cutting function (a compiled pattern's ``split``); else None."""
        return self._cutter() if len(w) > _CUT_MIN else None

    def prepare_tables(self, text: str) -> None:
        """Before running the stages over ``text``: a compact model loads its whole tables when
        the text is long (most of them would load anyway; skips the per-piece checks)."""
        if self._lazy is not None and len(text) > _LAZY_TEXT_MAX:
            self._full()

    def prepare_text(self, text: str) -> str:
        """``text`` as :meth:`count_steps`'s positions count it: :meth:`check_text`'s."""
        return self.check_text(text)

    def count_steps(
        self,
        text: str,
        *,
        add_special_tokens: bool = True,
        allowed_special: Any = frozenset(),
        disallowed_special: Any = "all",
        batch: int = 2048,
    ) -> Generator[tuple[int, int], None, int]:
        """Count as :meth:`encode` in exact steps (:func:`bytepair.hf.chunked.hf_count_steps`;
        added tokens are always recognised: ``allowed_special`` / ``disallowed_special`` are
        ignored). Yields ``(tokens so far, position)``; returns the total.

        Raises:
            TypeError: ``text`` is not a ``str``. ValueError: ``batch`` < 1.
        """
        from .chunked import hf_count_steps

        return (yield from hf_count_steps(self, text, add_special_tokens=add_special_tokens, batch=batch))

    @property
    def has_split_pattern(self) -> bool:
        """Capability: the pre-tokenizer holds a split regex (:attr:`pattern`)."""
        return self.pattern is not None

    # The BPE model's parts, for replaying its merges (bytepair.teach.explain's stories)
    @property
    def model_vocab(self) -> dict[str, int]:
        """The BPE model's vocabulary (token string -> id). A compact model's fills bucket by bucket
        as the stages touch its pieces (:mod:`bytepair.hf.lazy`)."""
        return self._vocab

    def merge_ranks(self) -> dict[str, int]:
        """Merge rank by the merged token's string (see :meth:`model_symbols`'s separator)."""
        return self._merge_ranks()

    def model_symbols(self, w: str) -> list[str]:
        """A piece's starting symbols before any merge (characters, or byte-fallback tokens, or
        ``unk_token``)."""
        return self._symbols(w, False)[0]

    @property
    def model_options(self) -> dict[str, Any]:
        """The BPE model's options: ``unk_token`` (``str`` or None), ``ignore_merges``,
        ``byte_fallback`` (bool), ``continuing_subword_prefix``, ``end_of_word_suffix`` (``str``,
        ``""`` without one) and ``separator`` (the string joining a merge's two parts in
        :meth:`merge_ranks`'s keys; settled once :meth:`merge_ranks` has run)."""
        return {
            "unk_token": self._unk,
            "ignore_merges": self._ignore_merges,
            "byte_fallback": self._byte_fallback,
            "continuing_subword_prefix": self._prefix,
            "end_of_word_suffix": self._suffix,
            "separator": self._sep,
        }

    # The compact format's view (bytepair.hf.compact): what it writes, and how it builds one back
    @property
    def file_settings(self) -> dict[str, Any]:
        """The parsed ``tokenizer.json`` without the model's tables: a new dict (a shallow copy, the
        file's key order) whose ``"model"`` has no ``vocab`` and ``merges``; the normalizer,
        pre-tokenizer, post-processor, decoder and ``added_tokens`` (when the file gave them as a
        list) as given."""
        rest = dict(self._data)
        rest["model"] = {k: v for k, v in self._data["model"].items() if k not in ("vocab", "merges")}
        return rest

    @property
    def added_columns(self) -> tuple[Sequence[str], Sequence[int], Sequence[int]] | None:
        """The added tokens as a compact file stored them, ``(content, ids, flags)`` columns
        (:mod:`bytepair.hf.added`), to be written back as they were; None for a tokenizer read from
        a ``tokenizer.json`` (its added tokens are in :attr:`file_settings`)."""
        return self._added_columns

    @property
    def tables_loaded(self) -> bool:
        """Whether the vocabulary and merge tables are whole: True for a tokenizer read from a
        ``tokenizer.json``; for a compact model (:mod:`bytepair.hf.lazy`), False until its buckets
        are all loaded (:meth:`load_all_tables`, or a long text: :meth:`prepare_tables`)."""
        return self._lazy is None or bool(self._lazy.complete)

    def load_all_tables(self) -> None:
        """Load the rest of a compact model's vocabulary and merge tables (:mod:`bytepair.hf.lazy`),
        so :attr:`model_vocab` and :meth:`merge_ranks` are whole; no-op for any other tokenizer."""
        self._full()

    @classmethod
    def from_parts(
        cls,
        data: dict,
        *,
        vocab: dict[str, int],
        ranks: dict[str, int],
        merge_sep: str,
        n_merges: int,
        config: dict | None = None,
        name: str | None = None,
        tables: Any = None,
        id_to_token: dict[int, str] | list[str] | None = None,
        added_columns: tuple | None = None,
        config_added_tokens_decoder: bool = False,
        cut_glued: str | None = None,
    ) -> HFTokenizer:
        """A tokenizer built from a compact file's parts (:func:`bytepair.hf.compact.from_compact`)
        instead of a whole ``tokenizer.json``.

        Args:
            data: :attr:`file_settings` as written (the ``tokenizer.json`` without the model's
                ``vocab`` and ``merges``); not changed.
            vocab: ``{token: id}`` (``tables.vocab`` when the tables fill lazily).
            ranks: the merge table, ``{left + merge_sep + right: rank}``, as :meth:`merge_ranks`.
            merge_sep: the separator of ``ranks``' keys. n_merges: how many merges the model has.
            config: the ``tokenizer_config.json`` dict. name: the display name.
            tables: a :class:`bytepair.hf.lazy.LazyTables` filling ``vocab`` and ``ranks`` bucket
                by bucket, or None when they are whole.
            id_to_token: the id -> token table when the file gives it (``tables.id_to_token``; the
                token list when ids are ``0..n-1``), else None (built on first use).
            added_columns: the added tokens as ``(content, ids, flags)`` columns
                (:mod:`bytepair.hf.added`), in place of ``data["added_tokens"]``.
            config_added_tokens_decoder: ``config`` lacks its ``added_tokens_decoder``, which
                :attr:`config` rebuilds from ``added_columns`` when first read.
            cut_glued: :meth:`glued_before_space`'s answer, stored by the file (else found when needed).

        Returns:
            An :class:`HFTokenizer` giving the ids of the tokenizer the parts were written from.

        Raises:
            TokenizerFileError: an unsupported model, component or option in ``data`` (as
                :func:`from_tokenizer_json`). KeyError / TypeError / ValueError: ``data`` has no
                ``"model"`` dict.
        """
        model = dict(data["model"])
        model["vocab"] = vocab
        model["merges"] = []
        tok = cls({**data, "model": model}, config=config, name=name, _lazy=tables, _added_columns=added_columns)
        if added_columns is not None and config_added_tokens_decoder:
            tok._config_decoder = added_columns
        tok._ranks, tok._sep, tok._n_merges = ranks, merge_sep, n_merges
        if id_to_token is not None:
            tok._vocab_r = id_to_token
        if cut_glued is not None:
            tok._glued = cut_glued
        tok._data = {**data, "model": {**data["model"]}}
        return tok

    # ------------------------------------------------------------- the model
    def _full(self) -> None:
        """Load the rest of a compact model's tables (:mod:`bytepair.hf.lazy`); no-op otherwise."""
        if self._lazy is not None:
            self._lazy.load_all()
            self._lazy = None

    def _merge_ranks(self) -> dict[str, int]:
        """``{left + sep + right: rank}``, built on first use (the load stays cheap).

        Keys are strings, not tuples: for merges spelled ``"a b"`` the file's
        strings are the keys as they are (``sep`` is a space; those tokens
        cannot hold one). For ``["a", "b"]`` pairs ``sep`` is a character no
        token contains.
        """
        if self._ranks is None:
            merges = self._merges_raw
            n = len(merges)
            if n and all(isinstance(m, str) for m in merges):
                sep = " "
                if sum(map(str.count, merges, itertools.repeat(" ", n))) != n:
                    bad = next(i for i, m in enumerate(merges) if m.count(" ") != 1)
                    raise TokenizerFileError(
                        f"merge {bad} must be two tokens separated by one space, got {merges[bad]!r}",
                        where=f"model.merges[{bad}]",
                        component="BPE",
                    )
                keys = merges
            else:
                bad = next(
                    (
                        i
                        for i, m in enumerate(merges)
                        if not (isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m))
                    ),
                    -1,
                )
                if bad >= 0:
                    raise TokenizerFileError(
                        f'merge {bad} must be two tokens ("a b" or ["a", "b"]), got {merges[bad]!r}',
                        where=f"model.merges[{bad}]",
                        component="BPE",
                    )
                joined = "".join(self._vocab)
                sep = next(c for c in (" ", "\x00", "\ufffe", "\uffff", "\U0010fffe") if c not in joined)
                keys = map(sep.join, merges)
            self._sep = sep
            self._ranks = dict(zip(keys, range(n)))
        return self._ranks

    def _check_merges(self) -> None:
        """Refuse a merge naming a token that is not in the vocabulary, as ``tokenizers`` does at load.

        ``tokenizers`` (``BpeBuilder::build``, ``Error::MergeTokenOutOfVocabulary``)
        looks up both parts of every merge and their result (the right part
        without ``continuing_subword_prefix``) and refuses the file. Builds the
        merge table (else built on first encode), so the check costs one pass.

        Raises:
            TokenizerFileError: ``where="model.merges[i]"`` of the first bad merge,
                the message naming the missing token.
        """
        self._merge_ranks()
        vocab, plen = self._vocab, self._plen
        has = vocab.__contains__
        merges = self._merges_raw
        if isinstance(merges[0], str):
            parts = list(map(str.partition, merges, itertools.repeat(" ")))
            lefts, rights = list(map(operator.itemgetter(0), parts)), list(map(operator.itemgetter(2), parts))
        else:
            lefts, rights = list(map(operator.itemgetter(0), merges)), list(map(operator.itemgetter(1), merges))
        # fast path, all in C: every part and every result is a token
        tails = rights if not plen else map(operator.itemgetter(slice(plen, None)), rights)
        if all(map(has, itertools.chain(lefts, rights, map(operator.add, lefts, tails)))):
            return
        for i, (a, b) in enumerate(zip(lefts, rights)):
            if has(a) and has(b) and has(a + b[plen:]):
                continue
            missing = next(t for t in (a, b, a + b[plen:]) if not has(t))
            raise TokenizerFileError(
                f"merge {i} ({a!r} + {b!r}) names {missing!r}, which is not in model.vocab "
                "(tokenizers refuses such a file: MergeTokenOutOfVocabulary)",
                where=f"model.merges[{i}]",
                component="BPE",
                reason="merge_not_in_vocab",
                values={"merge": i, "token": missing},
            )

    def _symbols(self, w: str, want_ranges: bool):
        """tokenizers' ``BPE::merge_word`` before merging: the initial symbols (vocab strings) and their char ranges."""
        vocab = self._vocab
        if not self._prefix and not self._suffix and all(map(vocab.__contains__, w)):
            syms: list[str] = list(w)
            return syms, ([(i, i + 1) for i in range(len(w))] if want_ranges else None)
        syms = []
        rng: list[tuple[int, int]] = []
        unk: tuple[int, int] | None = None  # pending unk: (start, end) in chars
        unk_sym = self._unk or ""  # (unk is only ever set when the model has an unknown token)
        last = len(w) - 1
        for i, ch in enumerate(w):
            s = ch
            if i > 0 and self._prefix:
                s = self._prefix + s
            if i == last and self._suffix:
                s = s + self._suffix
            if s in vocab:
                if unk is not None:
                    syms.append(unk_sym)
                    rng.append(unk)
                    unk = None
                syms.append(s)
                rng.append((i, i + 1))
                continue
            if self._byte_fallback:
                codes = [f"<0x{b:02X}>" for b in s.encode("utf-8", "surrogatepass")]
                if all(c in vocab for c in codes):
                    syms += codes
                    rng += [(i, i + 1)] * len(codes)
                    continue
            if self._unk is not None:
                if unk is not None and self._fuse_unk:
                    unk = (unk[0], i + 1)
                else:
                    if unk is not None:
                        syms.append(unk_sym)
                        rng.append(unk)
                    unk = (i, i + 1)
        if unk is not None:
            syms.append(unk_sym)
            rng.append(unk)
        return syms, (rng if want_ranges else None)

    def _merge(self, syms: list[str], rng: list[tuple[int, int]] | None) -> None:
        """Merge in place: lowest rank first, leftmost on ties (tokenizers' ``Word::merge_all``)."""
        if len(syms) < 2:
            return
        get = self._merge_ranks().get
        sep = self._sep
        plen = self._plen
        if len(syms) >= _LONG_WORD:
            self._merge_long(syms, rng, get, plen, sep)
            return
        no = _NO
        ranks = [get(a + sep + b, no) for a, b in itertools.pairwise(syms)]
        while ranks:
            best = min(ranks)
            if best == no:
                break
            i = ranks.index(best)
            b = syms.pop(i + 1)
            syms[i] += b[plen:] if plen else b
            if rng is not None:
                rng[i] = (rng[i][0], rng.pop(i + 1)[1])
            del ranks[i]
            if i < len(ranks):
                ranks[i] = get(syms[i] + sep + syms[i + 1], no)
            if i > 0:
                ranks[i - 1] = get(syms[i - 1] + sep + syms[i], no)

    @staticmethod
    def _merge_long(syms: list[str], rng, get, plen: int, sep: str) -> None:
        """Heap + linked list version of :meth:`_merge` for long words, O(n log n)."""
        # The heap loop of bytepair.bpe._merge_long / _merges_long again, keyed by symbol strings
        # (and moving character ends): a copy on purpose, each encoder's hot loop (see the note
        # above bpe._merges_long; tools/bench_hf.py measures this one).
        n = len(syms)
        sym: list[Any] = list(syms)  # str; None once merged into its left neighbour
        ends = [r[1] for r in rng] if rng is not None else None
        nxt = list(range(1, n + 1))
        prv = list(range(-1, n - 1))
        heap = [(r, i) for i in range(n - 1) if (r := get(sym[i] + sep + sym[i + 1])) is not None]
        heapq.heapify(heap)
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            r, s = pop(heap)
            a = sym[s]
            m = nxt[s]
            if a is None or m >= n or get(a + sep + sym[m]) != r:
                continue
            b = sym[m]
            new = a + (b[plen:] if plen else b)
            sym[s] = new
            sym[m] = None
            if ends is not None:
                ends[s] = ends[m]
            e = nxt[m]
            nxt[s] = e
            if e < n:
                prv[e] = s
                r2 = get(new + sep + sym[e])
                if r2 is not None:
                    push(heap, (r2, s))
            p = prv[s]
            if p >= 0:
                r2 = get(sym[p] + sep + new)
                if r2 is not None:
                    push(heap, (r2, p))
        keep = [i for i in range(n) if sym[i] is not None]
        syms[:] = [sym[i] for i in keep]
        if rng is not None:
            rng[:] = [(rng[i][0], ends[i]) for i in keep]  # type: ignore[index]

    def _ids_of(self, syms: list[str]) -> list[int]:
        vocab = self._vocab
        try:
            return [vocab[s] for s in syms]
        except KeyError as e:
            raise TokenizerFileError(
                f"a merge makes {e.args[0]!r}, which is not in the vocabulary", where="model.merges", component="BPE"
            ) from None

    def _cutter(self):
        """A function cutting a long piece before ``▁`` where no token can span the cut, or None.

        Pieces of SentencePiece-style files (Gemma's: no pre-tokenizer split) can
        be whole paragraphs. A cut between characters ``x`` and ``▁`` changes no
        id when no vocabulary token holds ``x▁`` (so no merge, whose result is
        a token, joins across it), ``▁`` is itself a token (no unk fuses across)
        and neither ``ignore_merges`` nor subword affixes apply. The parts are
        then short and repeat, so they hit the piece cache.
        """
        if self._cut is False:
            glued = self.glued_before_space()
            if glued is None:
                self._cut = None
            else:
                cls = re.escape("".join(sorted(set(glued) | {"\u2581"})))
                rx = re.compile(f"(?<=[^{cls}])(?=\u2581)")
                self._cut = rx.split
        return self._cut

    def glued_before_space(self) -> str | None:
        """The characters ``x`` of tokens holding ``x▁`` (sorted, one string), or None when
        long pieces are not cut (see :meth:`model_ids`). Read from the compact file when it holds
        them (``cut_glued``: :func:`bytepair.hf.compact.to_compact` writes them, so the first count
        skips a pass over the vocabulary); else found by one pass over the whole vocabulary
        (a compact model loads all its tables for it)."""
        if self._lazy is not None:
            self._lazy.need("\u2581")
        if "\u2581" not in self._vocab or self._ignore_merges or self._prefix or self._suffix:
            return None
        if self._glued is None:
            self._full()
            self._glued = "".join(sorted(set(re.findall("([^\u2581])\u2581", "\n".join(self._vocab)))))
        return self._glued

    def model_ids(self, w: str) -> list[int]:
        """One pre-token (piece, already byte-mapped for byte-level models) -> ids. Cached."""
        # _word_spans is this method again with character ranges: a copy on purpose, so that
        # encode (this, the hot path) tracks no ranges; change both together.
        ids = self._cache.get(w)
        if ids is not None:
            return ids
        if len(w) > _CUT_MIN and (cut := self._cutter()) is not None:
            parts = cut(w)
            if len(parts) > 1:
                ids = []
                for p in parts:
                    ids += self.model_ids(p)
                return ids
        if self._lazy is not None:
            self._lazy.need(w)
        if self._ignore_merges and w in self._vocab:
            ids = [self._vocab[w]]
        else:
            syms, _ = self._symbols(w, False)
            self._merge(syms, None)
            ids = self._ids_of(syms)
        if len(w) <= _CACHE_MAX_CHARS:
            if len(self._cache) >= _CACHE_MAX_ENTRIES:
                self._cache.clear()
            self._cache[w] = ids
        return ids

    def _word_spans(self, w: str) -> list[tuple[int, int, int]]:
        """One piece -> ``(id, start, end)`` with [start, end) in characters of the piece."""
        # model_ids with ranges (its own cache): a copy on purpose, see there.
        out = self._span_cache.get(w)
        if out is not None:
            return out
        if len(w) > _CUT_MIN and (cut := self._cutter()) is not None:
            parts = cut(w)
            if len(parts) > 1:
                out = []
                pos = 0
                for p in parts:
                    out += [(t, a + pos, b + pos) for t, a, b in self._word_spans(p)]
                    pos += len(p)
                return out
        if self._lazy is not None:
            self._lazy.need(w)
        if self._ignore_merges and w in self._vocab:
            out = [(self._vocab[w], 0, len(w))]
        else:
            syms, rng = self._symbols(w, True)
            self._merge(syms, rng)
            out = [(t, a, b) for t, (a, b) in zip(self._ids_of(syms), rng)]
        if len(w) <= _CACHE_MAX_CHARS:
            if len(self._span_cache) >= _CACHE_MAX_ENTRIES:
                self._span_cache.clear()
            self._span_cache[w] = out
        return out

    # -------------------------------------------------------- added tokens
    def _find_added(self, s: str, matcher, table: dict[str, int]) -> list[tuple[int, int, int | None]]:
        """tokenizers' ``AddedVocabulary::find_matches``: ``(start, end, id or None)`` covering ``s``
        (``table``: content -> position in the added-token columns)."""
        if not s:
            return []
        if matcher is None:
            return [(0, len(s), None)]
        out: list[tuple[int, int, int | None]] = []
        start_offset = 0
        n = len(s)
        for start, stop in matcher.finditer(s):
            k = table[s[start:stop]]
            _, lstrip, rstrip, single_word, _ = _FLAG_VALUES[self._added_flags[k] & 31]
            if single_word:
                start_space = start == 0 or not _is_word_char(s[start - 1])
                stop_space = stop == n or not _is_word_char(s[stop])
                if not (start_space and stop_space):
                    continue
            if lstrip:
                j = start
                while j > 0 and s[j - 1] in _WS:
                    j -= 1
                start = max(j, start_offset)
            if rstrip:
                while stop < n and s[stop] in _WS:
                    stop += 1
            if start_offset < start:
                out.append((start_offset, start, None))
            out.append((start, stop, self._added_ids[k]))
            start_offset = stop
        if start_offset != n:
            out.append((start_offset, n, None))
        return out

    def run_stages(self, text: str, with_align: bool) -> Iterator[tuple]:
        """The stages before the model, in order, over ``text`` (a :meth:`check_text` text):
        yield ``("tok", id, start, end)`` for added tokens and ``("pieces", pieces)`` for pre-tokenized text.

        Offsets (characters of ``text``) are only computed with ``with_align``.
        """
        self.prepare_tables(text)
        normalizer, pre = self.normalizer, self.pre_tokenizer
        for a, b, tid in self.split_added(text):
            if tid is not None:
                yield ("tok", tid, a, b)
                continue
            seg = text[a:b]
            align = [(i, i + 1) for i in range(a, b)] if with_align else None
            if normalizer is not None:
                seg, align = normalizer(seg, align)
            for a2, b2, tid2 in self.split_added(seg, normalized=True):
                if tid2 is not None:
                    if align is not None:
                        yield ("tok", tid2, align[a2][0], align[b2 - 1][1])
                    else:
                        yield ("tok", tid2, 0, 0)
                    continue
                if align is None:
                    pieces: list[tuple[str, list[tuple[int, int]] | None, bool]] = [
                        (seg[a2:b2], None, a == 0 and a2 == 0)
                    ]
                else:
                    pieces = [(seg[a2:b2], align[a2:b2], align[a2][0] == 0)]
                if pre is not None:
                    pieces = pre(pieces)
                yield ("pieces", pieces)

    @staticmethod
    def check_text(text: str) -> str:
        """The first stage: ``text`` checked to be a ``str``, lone surrogates replaced by U+FFFD.

        Raises:
            TypeError: ``text`` is not a ``str`` (the message says to decode bytes first).
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = fix_surrogates(text)
        return text

    def post_process(self, ids: list, add_special_tokens: bool) -> list:
        """The post-process stage: ``ids`` (or any per-token items) inside :attr:`template`'s
        tokens with ``add_special_tokens``, else ``ids`` as they are."""
        if not add_special_tokens or self._template is None:
            return ids
        out: list = []
        for item in self._template:
            if item == "A":
                out += ids
            else:
                out += item
        return out

    # -------------------------------------------------------------- encoding
    @overload
    def encode(
        self, text: str, *, add_special_tokens: bool = ..., return_encoding: Literal[False] = ...
    ) -> list[int]: ...
    @overload
    def encode(self, text: str, *, add_special_tokens: bool = ..., return_encoding: Literal[True]) -> Encoding: ...
    def encode(
        self, text: str, *, add_special_tokens: bool = True, return_encoding: bool = False
    ) -> list[int] | Encoding:
        """Text -> token ids, as ``tokenizers``' ``encode(text, add_special_tokens=...).ids``.

        Added tokens in the text (special or not) are always recognised, as
        ``tokenizers`` does; ``add_special_tokens`` only controls what the
        post-processor adds (e.g. BOS). Lone surrogates become U+FFFD.

        The plain call returns the ids (``list[int]``, what bytepair's other
        tokenizers and tiktoken return); ``return_encoding=True`` returns an
        :class:`Encoding` with ``ids``, ``tokens`` and ``offsets`` as
        ``tokenizers.Tokenizer.encode`` does (an opt-in, so counting stays
        cheap and ``len(tok.encode(text))`` keeps meaning tokens);
        :meth:`encode_batch` returns encodings, as ``tokenizers``' does.

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        if return_encoding:
            return self._encoding(text, add_special_tokens)
        text = self.check_text(text)
        word_ids = self.model_ids
        out: list[int] = []
        for item in self.run_stages(text, self._needs_align):
            if item[0] == "tok":
                out.append(item[1])
            else:
                for piece in item[1]:
                    out += word_ids(piece[0])
        return self.post_process(out, add_special_tokens)

    def _encoding(self, text: str, add_special_tokens: bool) -> Encoding:
        spans = self.encode_with_spans(text, add_special_tokens=False)
        mask = [0] * len(spans)
        if add_special_tokens and self._template is not None:
            # as tokenizers: the mask marks what the post-processor adds, not added tokens in the text
            full: list = []
            mask = []
            for item in self._template:
                if item == "A":
                    full += spans
                    mask += [0] * len(spans)
                else:
                    full += [TokenSpan(t, b"", 0, 0, True) for t in item]
                    mask += [1] * len(item)
            spans = full
        ids = [sp.id for sp in spans]
        return Encoding(ids, [self.token_string(i) for i in ids], [(sp.start, sp.end) for sp in spans], mask)

    def encode_batch(self, texts: Iterable[str], *, add_special_tokens: bool = True) -> list[Encoding]:
        """Each text's :class:`Encoding` (ids, tokens, character offsets), in order, as
        ``tokenizers``' ``encode_batch(texts, add_special_tokens=...)`` (one thread).

        Raises:
            TypeError: ``texts`` is a single ``str``, or an item is not a ``str``.
        """
        if isinstance(texts, str):
            raise TypeError("encode_batch takes a list of texts, not one str (use encode)")
        return [self._encoding(t, add_special_tokens) for t in texts]

    def encode_ordinary(self, text: str) -> list[int]:
        """:meth:`encode` with ``add_special_tokens=False``."""
        return self.encode(text, add_special_tokens=False)

    def count(self, text: str, *, add_special_tokens: bool = True) -> int:
        """Number of tokens :meth:`encode` gives."""
        return len(self.encode(text, add_special_tokens=add_special_tokens))

    def is_within_limit(self, text: str, limit: int, *, add_special_tokens: bool = True) -> int | Literal[False]:
        """The token count of ``text`` (as :meth:`encode`) if at most ``limit``, else ``False``,
        stopping as soon as the count passes ``limit`` (:func:`bytepair.app.limits.is_within_limit`).

        Raises:
            ArgumentError: ``limit`` is negative or not an int (``field="limit"``).
            TypeError: ``text`` is not a ``str``.
        """
        check_count(limit, "limit", minimum=0)
        return count_within(self.count_steps(text, add_special_tokens=add_special_tokens, batch=LIMIT_BATCH), limit)

    def encode_with_spans(
        self, text: str, *, add_special_tokens: bool = False, units: Literal["chars", "utf16"] = "chars"
    ) -> list[TokenSpan]:
        """Encode and say which part of ``text`` each token covers.

        Same ids as :meth:`encode`. ``[start, end)`` index the ``text`` given,
        in characters (``units="chars"``) or UTF-16 code units (``"utf16"``).
        When the normalizer changes the text, a token's span is the run of
        input characters its normalized characters came from; tokens that are
        fragments of one character (byte-level or ``<0xXX>`` byte fallback)
        share its span; tokens the post-processor adds have an empty span at 0.

        Raises:
            TypeError: ``text`` is not a ``str``. ArgumentError: bad ``units``.
        """
        _check_units(units)
        original = text
        text = self.check_text(text)
        raw: list[tuple[int, int, int, bool]] = []
        for item in self.run_stages(text, True):
            if item[0] == "tok":
                raw.append((item[1], item[2], item[3], self._is_special_id(item[1])))
                continue
            for ptext, align, _ in item[1]:
                for t, a, b in self._word_spans(ptext):
                    if a < b:
                        s, e = align[a][0], align[b - 1][1]
                        e = max(e, s)
                    else:
                        s = e = align[a][0] if a < len(align) else (align[-1][1] if align else 0)
                    raw.append((t, s, e, False))
        if add_special_tokens and self._template is not None:
            full: list = []
            for item in self._template:
                if item == "A":
                    full += raw
                else:
                    full += [(t, 0, 0, True) for t in item]
            raw = full
        if units == "utf16":
            raw = chars_to_utf16(original, raw)
        return [TokenSpan(t, self.token_bytes(t), a, b, sp) for t, a, b, sp in raw]

    def _dropped_in_piece(self, w: str) -> list[int]:
        """Indexes of the characters of piece ``w`` that become no token (no vocabulary entry,
        no byte fallback, no ``unk_token``: ``tokenizers`` drops them silently)."""
        if self._lazy is not None:
            self._lazy.need(w)
        if self._unk is not None or (self._ignore_merges and w in self._vocab):
            return []
        if not self._prefix and not self._suffix and all(map(self._vocab.__contains__, w)):
            return []
        covered = [False] * len(w)
        for a, b in self._symbols(w, True)[1] or ():
            covered[a:b] = [True] * (b - a)
        return [i for i, c in enumerate(covered) if not c]

    def dropped_characters(self, text: str, *, units: Literal["chars", "utf16"] = "chars") -> list[tuple[int, int]]:
        """Where ``text`` has characters that become no token at all.

        A vocabulary without ``unk_token`` and without ``byte_fallback`` has no
        token for a character it lacks; ``tokenizers`` (and :meth:`encode`, with
        the same ids) leaves it out silently. Returns the ``[start, end)`` spans
        (characters, or UTF-16 code units with ``units="utf16"``) of those
        characters of the ``text`` given, in order, one per character; empty
        when nothing is dropped (always for ``unk_token`` / byte-fallback files).
        Characters a normalizer removes are not counted.

        Raises:
            TypeError: ``text`` is not a ``str``. ArgumentError: bad ``units``.
        """
        _check_units(units)
        original = text
        text = self.check_text(text)
        if self._unk is not None:
            return []
        out: set[tuple[int, int]] = set()
        for item in self.run_stages(text, True):
            if item[0] == "tok":
                continue
            for ptext, align, _ in item[1]:
                for i in self._dropped_in_piece(ptext):
                    out.add(align[i])
        spans = sorted(out)
        if units == "utf16" and spans:
            spans = [(a, b) for _, a, b, _ in chars_to_utf16(original, [(0, a, b, False) for a, b in spans])]
        return spans

    def _is_special_id(self, tid: int) -> bool:
        k = self._added_index.get(tid)
        return k is not None and self._added_flags[k] & 1 == 1

    # -------------------------------------------------------------- decoding
    def _id_to_token(self, tid: int) -> str | None:
        t = self._added_strings.get(tid)
        if t is not None:
            return t
        r = self._vocab_r
        if r is None:  # C-speed: a dict comprehension over Gemma's 262K tokens took ~80 ms
            r = self._vocab_r = dict(zip(self._vocab.values(), self._vocab))
        if isinstance(r, list):
            return r[tid] if 0 <= tid < len(r) else None
        t = r.get(tid)
        if t is None and self._lazy is not None:
            self._lazy.need_id(tid)
            t = r.get(tid)
        return t

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """Token ids -> text, as ``tokenizers``' ``decode(ids, skip_special_tokens=...)``.

        Ids with no token are skipped (as ``tokenizers`` does). Without a
        decoder in the file, tokens are joined with spaces (as ``tokenizers``).

        Raises:
            TypeError: an id is not an int.
        """
        tokens: list[str] = []
        specials = self._special_contents
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f"token ids are ints, got {i!r} ({type(i).__name__})")
            t = self._id_to_token(i)
            if t is None or (skip_special_tokens and t in specials):
                continue
            tokens.append(t)
        if self._decoder is None:
            return " ".join(tokens)
        return "".join(self._decoder(tokens))

    def decode_batch(self, sequences: Iterable[Iterable[int]], *, skip_special_tokens: bool = False) -> list[str]:
        """:meth:`decode` of each id list, as ``tokenizers``' ``decode_batch``.

        Raises:
            TypeError: an id is not an int.
        """
        return [self.decode(ids, skip_special_tokens=skip_special_tokens) for ids in sequences]

    def token_to_id(self, token: str) -> int | None:
        """The id of the vocabulary entry spelled ``token`` (``"Ġhello"``, an added
        token's content), or ``None``; as ``tokenizers``' ``token_to_id``."""
        if not isinstance(token, str):
            raise TypeError(f"token must be a str, got {type(token).__name__}")
        for table in (self._raw_added, self._norm_added):
            k = table.get(token)
            if k is not None:
                return self._added_ids[k]
        if self._lazy is not None:
            self._full()
        return self._vocab.get(token)

    def id_to_token(self, tid: int) -> str | None:
        """The vocabulary's spelling of id ``tid``, or ``None`` for an id with no token;
        as ``tokenizers``' ``id_to_token`` (:meth:`token_string` raises instead)."""
        if not isinstance(tid, int) or isinstance(tid, bool):
            raise TypeError(f"token ids are ints, got {tid!r} ({type(tid).__name__})")
        return self._id_to_token(tid) if tid >= 0 else None

    def get_vocab(self, *, with_added_tokens: bool = True) -> dict[str, int]:
        """``{token spelling: id}`` (a new dict), with the added tokens unless
        ``with_added_tokens=False``; as ``tokenizers``' ``get_vocab``."""
        self._full()
        out = dict(self._vocab)
        if with_added_tokens:
            for c, i in zip(self._added_content, self._added_ids):
                out[self._added_strings.get(i, c)] = i
        return out

    def get_vocab_size(self, *, with_added_tokens: bool = True) -> int:
        """Number of distinct vocabulary entries (added tokens counted unless
        ``with_added_tokens=False``); as ``tokenizers``' ``get_vocab_size``
        (:attr:`n_vocab` is the largest id + 1 instead)."""
        return len(self.get_vocab(with_added_tokens=with_added_tokens))

    def apply_chat_template(
        self,
        messages: Any,
        *,
        tools: Any = None,
        add_generation_prompt: bool = False,
        tokenize: bool = True,
        **kwargs: Any,
    ) -> list[int] | str:
        """``transformers``' ``tokenizer.apply_chat_template(messages, tools=...,
        add_generation_prompt=..., tokenize=...)`` on this tokenizer's
        ``tokenizer_config.json`` template: ids (``tokenize=True``) or text.

        The one implementation is :func:`bytepair.chat.apply_chat_template`
        (see it for ``documents``, ``chat_template``, ``continue_final_message``
        and template variables passed as ``**kwargs``, and for the errors it
        raises: ``ChatTemplateError``, ``ArgumentError``, ``ImportError``
        without jinja2). ``return_dict`` / ``return_tensors`` are not offered.
        """
        from .. import chat

        for k in ("return_dict", "return_tensors", "padding", "truncation", "max_length"):
            if kwargs.get(k):
                raise ArgumentError(f"apply_chat_template: {k} is not supported by bytepair", field=k)
            kwargs.pop(k, None)
        return chat.apply_chat_template(
            self, messages, tools=tools, add_generation_prompt=add_generation_prompt, tokenize=tokenize, **kwargs
        )

    def token_string(self, tid: int) -> str:
        """The vocabulary's own spelling of token ``tid`` (``"Ġhello"``, ``"▁hello"``, ``"<0xE0>"``).

        Raises:
            KeyError: no token has this id.
        """
        t = self._id_to_token(tid) if isinstance(tid, int) else None
        if t is None:
            raise KeyError(f"token id {tid!r} is not in the vocabulary of {self.name!r} (ids 0..{self.n_vocab - 1})")
        return t

    def token_bytes(self, tid: int) -> bytes:
        """The UTF-8 *bytes* token ``tid`` stands for.

        Special tokens: their text. Other tokens (non-special added tokens too,
        as the decoder treats them): byte-level vocabularies: GPT-2's
        byte-to-unicode spelling undone (``Ġ`` -> space). Byte fallback
        ``<0xE0>`` -> that byte. SentencePiece-style ``▁`` -> space.

        Raises:
            KeyError: no token has this id.
        """
        k = self._added_index.get(tid)
        if k is not None and self._added_flags[k] & 1:
            return self._added_content[k].encode("utf-8", "surrogatepass")
        s = self.token_string(tid)
        if self._byte_fallback and len(s) == 6 and s.startswith("<0x") and s.endswith(">"):
            try:
                return bytes((int(s[3:5], 16),))
            except ValueError:
                pass
        if self._byte_level:
            try:
                return bytes([hc.U2B[c] for c in s])
            except KeyError:
                pass
        if self._metaspace:
            s = s.replace("\u2581", " ")
        return s.encode("utf-8", "surrogatepass")

    decode_single_token_bytes = token_bytes

    # -------------------------------------------------------------- info
    def describe(self) -> dict:
        """JSON-friendly facts for an info panel.

        Keys: ``name, model, vocab_size`` (model vocabulary), ``n_vocab``,
        ``n_merges, n_added_tokens, byte_level, byte_fallback, unk_token,
        ignore_merges, continuing_subword_prefix, end_of_word_suffix,
        normalizer`` (the JSON), ``pre_tokenizer`` (type, split patterns,
        options), ``split_patterns`` (list of regex/string sources),
        ``post_processor`` (what it adds: ``single`` template), ``decoder``
        (the JSON), ``special_tokens`` ({content: id}), ``bos_token, eos_token``,
        ``has_chat_template``.
        """
        patterns: list[str] = []

        def walk(info):
            if not info:
                return
            if info.get("type") == "Sequence":
                for p in info.get("pretokenizers", []):
                    walk(p)
            elif "regex" in info:
                patterns.append(info["regex"])
            elif "string" in info:
                patterns.append(info["string"])

        pre_info = self._pre.info if self._pre is not None else None
        walk(pre_info)
        return {
            "name": self.name,
            "model": "BPE",
            "vocab_size": self._lazy.n_tokens if self._lazy is not None else len(self._vocab),
            "n_vocab": self.n_vocab,
            "n_merges": self._n_merges,
            "n_added_tokens": len(self._added_ids),
            "byte_level": self._byte_level,
            **self._model_info,
            "normalizer": self._normalizer_spec,
            "pre_tokenizer": pre_info,
            "split_patterns": patterns,
            "post_processor": self._post_info,
            "decoder": self._decoder_spec,
            "special_tokens": self.special_tokens,
            "bos_token": self.bos_token,
            "eos_token": self.eos_token,
            "has_chat_template": self.chat_template is not None,
        }


def from_tokenizer_json(source: Any, *, config: Any = None, name: str | None = None) -> HFTokenizer:
    """Load a Hugging Face ``tokenizer.json`` (BPE models) exactly.

    Args:
        source: a path (``str``/``PathLike``), the JSON text (a ``str``
            starting with ``{``), its bytes, or the parsed dict.
        config: optional ``tokenizer_config.json``: path, text, bytes or dict
            (BOS/EOS tokens, chat template).
        name: a display name (default: the config's ``name_or_path``, else
            ``"tokenizer.json"``).

    Returns:
        An :class:`HFTokenizer`; its ``encode`` gives the ids of
        ``tokenizers.Tokenizer.from_file(source).encode(text).ids``.

    Raises:
        TokenizerFileError: unreadable or malformed file, or an unsupported
            model / component / option (``where`` is its JSON path, e.g.
            ``"pre_tokenizer.pretokenizers[2]"``; ``component`` its type).
    """
    data = read_json_object(source, "tokenizer.json")
    cfg = read_json_object(config, "tokenizer_config.json") if config is not None else None
    return HFTokenizer(data, config=cfg, name=name)
