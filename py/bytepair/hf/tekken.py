"""Mistral's Tekken tokenizer files (``tekken_*.json``), id-for-id as ``mistral-common``.

A Tekken file is tiktoken-style: ``vocab`` is a list of ``{rank, token_bytes
(base64), token_str}``, ``config`` holds the split ``pattern``,
``default_vocab_size`` and ``default_num_special_tokens``, and (newer files)
``special_tokens`` lists ``{rank, token_str, is_control}``. As in
``mistral-common``'s ``Tekkenizer`` (``mistral_common/tokens/tokenizers/tekken.py``,
read to learn the rules, not copied):

* the first ``num_special_tokens`` ids are special tokens (the file's list,
  or for files without one, version <= v7, Mistral's 20 historical ones),
  padded with ``<SPECIAL_{id}>`` fillers;
* the ordinary vocabulary is cut to its first ``vocab_size - num_special_tokens``
  ranks, and ordinary token ids are ``rank + num_special_tokens``;
* text encodes with tiktoken's rule and the pattern; special-token strings
  in the text are ordinary text; ``add_special_tokens`` prepends BOS (``<s>``);
* decoding drops special tokens (``skip_special_tokens=True``, mistral-common's
  default ``IGNORE``) or writes their text (``KEEP``).
"""

from __future__ import annotations

import base64
import binascii
import itertools
from collections.abc import Collection, Generator, Iterable
from typing import Any, ClassVar, Literal

from ..decoding import token_to_display
from ..errors import ArgumentError, TokenizerFileError
from ..formats.jsonguard import read_json_object
from ..protocol import PipelineKind
from ..tokenizer import Tokenizer, TokenSpan

__all__ = ["TekkenTokenizer", "from_tekken"]

# mistral-common's Tekkenizer.DEPRECATED_SPECIAL_TOKENS (ranks 0..19), for files without "special_tokens".
_LEGACY_SPECIALS = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)


class TekkenTokenizer:
    """A Mistral Tekken tokenizer. Build one with :func:`bytepair.from_tekken`.

    Same interface as :class:`bytepair.HFTokenizer` (``encode``, ``decode``,
    ``encode_with_spans``, ``token_bytes``, ``describe`` ...).
    """

    #: Capabilities (:mod:`bytepair.protocol`): BOS with add_special_tokens; special-token
    #: strings in the text are plain text (as mistral-common); a base Tokenizer plus BOS.
    adds_special_tokens: ClassVar[bool] = True
    special_tokens_in_text: ClassVar[Literal["switch", "always", "never"]] = "never"
    pipeline: ClassVar[PipelineKind] = "base"
    writes_files: ClassVar[bool] = False

    def __init__(self, data: dict, *, name: str | None = None) -> None:
        """Prefer :func:`from_tekken`. Raises TokenizerFileError for a malformed file."""
        cfg = data.get("config")
        vocab = data.get("vocab")
        if not isinstance(cfg, dict) or not isinstance(vocab, list):
            raise TokenizerFileError(
                'a Tekken file needs "config" (object) and "vocab" (list)',
                where="config" if not isinstance(cfg, dict) else "vocab",
            )
        try:
            pattern = str(cfg["pattern"])
            vocab_size = int(cfg["default_vocab_size"])
            n_special = int(cfg["default_num_special_tokens"])
        except (KeyError, TypeError, ValueError) as e:
            raise TokenizerFileError(
                f"Tekken config needs pattern, default_vocab_size, default_num_special_tokens ({e})", where="config"
            ) from e
        self.version = str(cfg.get("version", ""))
        self.config = dict(cfg)
        self.name = name or f"Tekken {self.version}".strip()
        specials = data.get("special_tokens")
        if specials is None:
            strs = list(_LEGACY_SPECIALS)
            controls = [True] * len(strs)
        else:
            strs = [str(t["token_str"]) for t in specials]
            controls = [bool(t.get("is_control", True)) for t in specials]
            for i, t in enumerate(specials):
                if int(t.get("rank", i)) != i:
                    raise TokenizerFileError(
                        f"special token {i} has rank {t.get('rank')}; ranks must be 0, 1, ...",
                        where=f"special_tokens[{i}]",
                    )
        if len(strs) > n_special:
            raise TokenizerFileError(
                f"{len(strs)} special tokens but default_num_special_tokens is {n_special}", where="special_tokens"
            )
        strs += [f"<SPECIAL_{i}>" for i in range(len(strs), n_special)]
        controls += [True] * (n_special - len(controls))
        self._specials = strs
        self._controls = controls
        self._n_special = n_special
        inner = vocab_size - n_special
        if inner > len(vocab) or inner < 256:
            raise TokenizerFileError(
                f"default_vocab_size {vocab_size} does not fit {len(vocab)} vocabulary entries and {n_special} special tokens",
                where="config.default_vocab_size",
            )
        ranks: dict[bytes, int] = {}
        self._token_str: list[str | None] = []
        for i, entry in enumerate(vocab[:inner]):
            try:
                if int(entry["rank"]) != i:
                    raise ValueError(f"rank {entry['rank']} at position {i}")
                b = base64.b64decode(entry["token_bytes"], validate=True)
            except (KeyError, TypeError, ValueError, binascii.Error) as e:
                raise TokenizerFileError(f"vocab entry {i} is malformed: {e}", where=f"vocab[{i}]") from e
            ranks[b] = i + n_special
            self._token_str.append(entry.get("token_str"))
        if len(ranks) != inner:
            raise TokenizerFileError("two vocabulary entries have the same bytes", where="vocab")
        try:
            self._base = Tokenizer.from_ranks(ranks, pattern=pattern, name=self.name, share_ranks=True)
        except ValueError as e:
            raise TokenizerFileError(f"cannot build the vocabulary: {e}", where="vocab") from e
        self.pattern = pattern
        self._bos = strs.index("<s>") if "<s>" in strs else None
        self._eos = strs.index("</s>") if "</s>" in strs else None

    # ------------------------------------------------------------ properties
    @property
    def n_vocab(self) -> int:
        """Number of ids (special + ordinary): mistral-common's ``n_words``."""
        return self._n_special + len(self._token_str)

    @property
    def special_tokens(self) -> dict[str, int]:
        """``{token string: id}`` of the special tokens (fillers included)."""
        return {s: i for i, s in enumerate(self._specials)}

    @property
    def added_tokens(self) -> list[dict]:
        """The special tokens as dicts (``id, content, special, control``)."""
        return [
            {"id": i, "content": s, "special": True, "control": c}
            for i, (s, c) in enumerate(zip(self._specials, self._controls))
        ]

    @property
    def bos_token(self) -> str | None:
        return None if self._bos is None else self._specials[self._bos]

    @property
    def eos_token(self) -> str | None:
        return None if self._eos is None else self._specials[self._eos]

    chat_template = None

    @property
    def base_tokenizer(self) -> Tokenizer:
        """The rank-based :class:`bytepair.Tokenizer` that encodes the text (ids after the special ones)."""
        return self._base

    @property
    def bos_id(self) -> int | None:
        """The id of ``<s>`` (added by :meth:`encode` with ``add_special_tokens``), or ``None``."""
        return self._bos

    @property
    def has_split_pattern(self) -> bool:
        """Capability: the base tokenizer's split pattern divides the text."""
        return self._base.has_split_pattern

    @property
    def counts_in_steps(self) -> bool:
        """Capability: :meth:`count_steps` divides the count (as the base tokenizer's)."""
        return self._base.counts_in_steps

    def prepare_text(self, text: str) -> str:
        """The base tokenizer's :meth:`bytepair.Tokenizer.prepare_text` (the count's positions)."""
        return self._base.prepare_text(text)

    def count_steps(
        self,
        text: str,
        *,
        add_special_tokens: bool = True,
        allowed_special: Literal["all"] | Collection[str] = frozenset(),
        disallowed_special: Literal["all"] | Collection[str] = "all",
        batch: int = 2048,
    ) -> Generator[tuple[int, int], None, int]:
        """Count as :meth:`encode`: the base tokenizer's steps (special-token strings as plain
        text; ``allowed_special`` / ``disallowed_special`` are ignored), plus BOS with
        ``add_special_tokens``. Yields ``(tokens so far, position)``; returns the total.

        Raises:
            TypeError: ``text`` is not a ``str``. ValueError: ``batch`` < 1.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        extra = int(add_special_tokens and self._bos is not None)
        steps = self._base.count_steps(text, allowed_special=frozenset(), disallowed_special=(), batch=batch)
        if extra and self._base.counts_in_steps:
            yield extra, 0
        try:
            while True:
                n, pos = next(steps)
                yield extra + n, pos
        except StopIteration as stop:
            return extra + stop.value

    def __repr__(self) -> str:
        return f"<TekkenTokenizer {self.name!r} n_vocab={self.n_vocab}>"

    # -------------------------------------------------------------- encoding
    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        """Text -> ids, as mistral-common's ``Tekkenizer.encode(text, bos=add_special_tokens, eos=False)``.

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        ids = self._base.encode_ordinary(text)
        if add_special_tokens and self._bos is not None:
            ids.insert(0, self._bos)
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """:meth:`encode` without BOS."""
        return self._base.encode_ordinary(text)

    def count(self, text: str, *, add_special_tokens: bool = True) -> int:
        return len(self.encode(text, add_special_tokens=add_special_tokens))

    def encode_with_spans(
        self, text: str, *, add_special_tokens: bool = False, units: Literal["chars", "utf16"] = "chars"
    ) -> list[TokenSpan]:
        """Tokens with their ``[start, end)`` in ``text`` (see :meth:`bytepair.Tokenizer.encode_with_spans`); BOS gets an empty span at 0."""
        spans = self._base.encode_with_spans(text, disallowed_special=(), units=units)
        if add_special_tokens and self._bos is not None:
            spans.insert(0, TokenSpan(self._bos, self._specials[self._bos].encode("utf-8"), 0, 0, True))
        return spans

    # -------------------------------------------------------------- decoding
    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """Ids -> text, as mistral-common's ``decode(ids, special_token_policy=KEEP)``
        (``skip_special_tokens=True``: ``IGNORE``). Runs of ordinary tokens decode
        separately (invalid UTF-8 -> U+FFFD), as there.

        Raises:
            KeyError: an id is out of range. TypeError: an id is not an int.
        """
        out: list[str] = []
        n = self._n_special
        for special, group in itertools.groupby(ids, lambda t: t < n):
            if special:
                if not skip_special_tokens:
                    out.extend(self._specials[t] for t in group)
            else:
                out.append(self._base.decode(list(group)))
        return "".join(out)

    def decode_batch(self, sequences: Iterable[Iterable[int]], *, skip_special_tokens: bool = False) -> list[str]:
        """:meth:`decode` of each id list (the ``tokenizers``-style batch call)."""
        return [self.decode(ids, skip_special_tokens=skip_special_tokens) for ids in sequences]

    def id_to_token(self, tid: int) -> str | None:
        """:meth:`token_string` of ``tid``, or ``None`` for an id with no token
        (the ``tokenizers``-style lookup)."""
        if not isinstance(tid, int) or isinstance(tid, bool):
            raise TypeError(f"token ids are ints, got {tid!r} ({type(tid).__name__})")
        return self.token_string(tid) if 0 <= tid < self.n_vocab else None

    def get_vocab_size(self) -> int:
        """Number of ids (special tokens included): :attr:`n_vocab`."""
        return self.n_vocab

    def apply_chat_template(
        self,
        messages: Any,
        *,
        tools: Any = None,
        add_generation_prompt: bool = True,
        tokenize: bool = True,
    ) -> list[int] | str:
        """The conversation in Mistral's chat format as PyPI ``mistral-common``
        encodes it for this (``v3``) Tekken file (``encode_chat_completion``;
        :func:`bytepair.chat.mistral.nemo_breakdown` is the one implementation):
        ids, or (``tokenize=False``) the text with the special tokens spelled out.

        ``add_generation_prompt`` is accepted for transformers-style calls; the
        format always ends with ``[/INST]``, the model's cue to answer.

        Raises:
            MessageError: a conversation mistral-common refuses (``message_index``).
            ArgumentError: a Tekken file of another version than ``v3``.
            ToolsError: tools of the wrong shape.
        """
        from ..chat import mistral as mistral_chat

        if self.version != "v3":
            raise ArgumentError(
                f"Mistral's chat format is implemented for v3 Tekken files (Mistral NeMo), not {self.version}",
                field="tokenizer",
            )
        b = mistral_chat.nemo_breakdown(messages, tokenizer=self, tools=tools)
        return b.ids if tokenize else b.text

    def token_bytes(self, tid: int) -> bytes:
        """The *bytes* of token ``tid`` (special tokens: their UTF-8 text).

        Raises:
            KeyError: no such id.
        """
        if isinstance(tid, int) and 0 <= tid < self._n_special:
            return self._specials[tid].encode("utf-8")
        return self._base.decode_single_token_bytes(tid)

    decode_single_token_bytes = token_bytes

    def token_string(self, tid: int) -> str:
        """The token as text: the file's ``token_str``, or hex groups (``<e0a6>``) for fragments of a character."""
        if isinstance(tid, int) and 0 <= tid < self._n_special:
            return self._specials[tid]
        b = self._base.decode_single_token_bytes(tid)
        s = self._token_str[tid - self._n_special]
        return s if s is not None else token_to_display(b)

    def describe(self) -> dict[str, Any]:
        """JSON-friendly facts for an info panel (keys as :meth:`bytepair.HFTokenizer.describe` where they apply),
        plus ``special_tokens_switch``: the words of the page's "Add special tokens" switch for this file."""
        return {
            "name": self.name,
            "model": "Tekken (tiktoken-style BPE)",
            "version": self.version,
            "vocab_size": len(self._token_str),
            "n_vocab": self.n_vocab,
            "n_merges": len(self._token_str) - 256,
            "n_added_tokens": self._n_special,
            "byte_level": True,
            "byte_fallback": False,
            "normalizer": None,
            "pre_tokenizer": {"type": "Split", "regex": self.pattern},
            "split_patterns": [self.pattern],
            "post_processor": {"single": [self.bos_token, "$A"] if self._bos is not None else ["$A"]},
            "special_tokens": {s: i for i, s in enumerate(self._specials) if not s.startswith("<SPECIAL_")},
            "bos_token": self.bos_token,
            "eos_token": self.eos_token,
            "has_chat_template": False,
            # the page's "Add special tokens" switch: a Tekken file has no post-processor; mistral-common
            # (Tekkenizer.encode(text, bos=True, eos=False)) adds the BOS
            "special_tokens_switch": (
                f"Add special tokens ({self.bos_token}), as mistral-common does for a Tekken file"
                if self._bos is not None
                else "Add special tokens (none: this Tekken file has no <s>)"
            ),
            # the same words as data, for a page in another language: its catalog's
            # tok.addSpecial.<kind> with {bos}
            "special_tokens_switch_kind": "tekken" if self._bos is not None else "tekken_none",
        }


def from_tekken(source: Any, *, name: str | None = None) -> TekkenTokenizer:
    """Load a Mistral Tekken file (``tekken_*.json`` from ``mistral-common``).

    Args:
        source: a path, the JSON text (``str`` starting with ``{``), bytes, or the parsed dict.
        name: display name (default ``"Tekken <version>"``).

    Returns:
        A :class:`TekkenTokenizer` whose ids equal mistral-common's ``Tekkenizer``'s.

    Raises:
        TokenizerFileError: unreadable or malformed file (``where``: the JSON path).
    """
    return TekkenTokenizer(read_json_object(source, "Tekken file"), name=name)
