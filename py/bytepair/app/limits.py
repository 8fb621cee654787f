"""Token limits: does a text fit, cutting a text into chunks that fit, and models' context windows.

* :func:`is_within_limit` counts a text in order (:func:`bytepair.app.chunked.count_steps`: the
  pre-tokenizer's pieces a batch at a time; open models through their own pipeline) and stops as
  soon as the count passes the limit. Semantics of gpt-tokenizer's ``isWithinTokenLimit(text,
  limit)`` (github.com/niieani/gpt-tokenizer, README "isWithinTokenLimit"): the count when the
  text fits, else ``False``.
* :func:`chunk` cuts a text into consecutive :class:`Chunk` s of at most ``max_tokens`` tokens
  each, every chunk counted again on its own (semchunk's rule: re-encoded counts, not slices of
  the whole text's ids as LangChain's ``TokenTextSplitter``, whose chunks can re-encode longer).
* :data:`CONTEXT_WINDOWS`: models' context windows (tokens), dated, with their sources; the page
  gets them through :func:`bytepair.app.facts.facts`.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Collection
from typing import Any, Literal

from ..errors import ArgumentError
from ..protocol import LIMIT_BATCH, check_count, count_within
from . import chunked, models

__all__ = [
    "BOUNDARIES",
    "CHAT_FORMAT_MODELS",
    "CONTEXT_WINDOWS",
    "Chunk",
    "ContextWindow",
    "chat_context_models",
    "chunk",
    "context_windows",
    "is_within_limit",
]


def is_within_limit(
    tok: Any,
    text: str,
    limit: int,
    *,
    add_special_tokens: bool = True,
    allowed_special: Literal["all"] | Collection[str] = frozenset(),
    disallowed_special: Literal["all"] | Collection[str] = "all",
) -> int | Literal[False]:
    """The number of tokens of ``text`` if it is at most ``limit``, else ``False``.

    Counts as ``tok.encode`` encodes (special tokens by the same rules: ``allowed_special`` /
    ``disallowed_special`` for a :class:`bytepair.Tokenizer`, as tiktoken; ``add_special_tokens``
    for open models and Tekken files, whose added tokens in the text are always recognised), in
    order, and stops as soon as the count passes ``limit``: the cost follows ``limit``, not the
    text's length (apart from C-speed passes over the whole text: normalization, the search for
    special tokens). A Tokenizer without a split pattern encodes the whole text (BPE merges across
    any cut). Semantics of gpt-tokenizer's ``isWithinTokenLimit`` (``false`` or the count).

    Args:
        tok: a :class:`bytepair.Tokenizer`, :class:`bytepair.HFTokenizer` or
            :class:`bytepair.TekkenTokenizer`.
        text: the text (characters).
        limit: the most tokens allowed (>= 0).

    Returns:
        ``int`` (tokens, ``<= limit``) or ``False``. Note ``0`` is a fit: test ``is False``.

    Raises:
        ArgumentError: ``limit`` is negative or not an int (``field="limit"``).
        TypeError: ``text`` is not a ``str``. ValueError: a disallowed special token in the text.
    """
    check_count(limit, "limit", minimum=0)
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
    steps = chunked.count_steps(
        tok,
        text,
        add_special_tokens=add_special_tokens,
        allowed_special=allowed_special,
        disallowed_special=disallowed_special,
        batch=LIMIT_BATCH,
    )
    return count_within(steps, limit)


# ---------------------------------------------------------------------------------------- chunks

#: The cut points :func:`chunk` prefers (``boundary=``).
BOUNDARIES = ("token", "sentence", "paragraph")

#: After a paragraph: a line break, blank lines, and the spaces before the next text.
_PARAGRAPH_END = re.compile(r"\n[ \t\r\f\v]*\n\s*")
#: After a sentence: terminators (Latin, CJK), closing quotes/brackets, the spaces after; or a line break.
_SENTENCE_END = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]]*\s+|[\u3002\uff01\uff1f]+[\u300d\u300f\uff09]*\s*|\n\s*")
#: Preferred cuts tried per chunk before falling back (each try counts one candidate chunk).
_PREFERRED_TRIES = 4


@dataclasses.dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk of a text: ``text == whole[start:end]`` (``start``/``end`` in characters);
    ``tokens``: its count encoded on its own (:func:`bytepair.app.models.count_tokens`)."""

    index: int
    text: str
    tokens: int
    start: int
    end: int

    def to_dict(self) -> dict[str, Any]:
        """``{"index", "text", "tokens", "start", "end"}`` (one JSONL line of ``bytepair chunk``)."""
        return dataclasses.asdict(self)


def chunk(
    tok: Any,
    text: str,
    max_tokens: int,
    *,
    overlap: int = 0,
    boundary: Literal["token", "sentence", "paragraph"] = "token",
    add_special_tokens: bool = False,
) -> list[Chunk]:
    """Cut ``text`` into consecutive chunks of at most ``max_tokens`` tokens each.

    The guarantee, for every chunk ``c``:

    * ``c.text == text[c.start:c.end]``, and ``c.tokens`` = ``count_tokens(tok, c.text,
      add_special_tokens=...)`` <= ``max_tokens``: the chunk **counted on its own** (special-token
      strings as plain text for a :class:`bytepair.Tokenizer`; BOS/EOS of open models only with
      ``add_special_tokens=True``). The count of a slice of the whole text's ids can differ from
      the chunk's own (BPE merges differently at a cut), so each chunk is counted again and cut
      earlier when it does not fit;
    * cuts fall between characters (a token that ends inside a character, as emoji and CJK
      fragments do, never ends a chunk; a chunk's ids decode to valid UTF-8);
    * without overlap the chunks join to ``text``; with ``overlap=K`` chunk ``i+1`` starts up to
      ``K`` tokens (of the whole text's tokenization, at a token boundary between characters)
      before chunk ``i`` ends, always after chunk ``i`` starts, and ends after it: the text
      is ``chunks[0].text`` followed by each next chunk's ``text[prev.end - start:]``.

    Where the cut goes: as far as ``max_tokens`` allows. ``boundary="paragraph"`` prefers the
    last paragraph end (after blank lines) that fits, then a sentence end, then a token boundary;
    ``"sentence"`` prefers a sentence end (``.!?…。！？`` with closing quotes, or a line break) then
    a token boundary; ``"token"`` cuts at the last token boundary that fits.

    Args:
        tok: a :class:`bytepair.Tokenizer`, :class:`bytepair.HFTokenizer` or
            :class:`bytepair.TekkenTokenizer`.
        text: the text (characters). max_tokens: tokens per chunk (>= 1).
        overlap: tokens repeated from the end of the previous chunk (0 <= overlap < max_tokens).

    Returns:
        ``list[Chunk]`` in order (empty for an empty text).

    Raises:
        ArgumentError: ``max_tokens`` < 1, ``overlap`` out of range, an unknown ``boundary``
            (``field`` names it); ``max_tokens`` too small for the text (a single character or
            token boundary step counts more, ``field="max_tokens"``; ``reason="chunk_too_small"``
            with ``max_tokens``, ``start``: the 0-based *character* where no chunk fits, ``needed``:
            the *tokens* of the shortest chunk from there).
        TypeError: ``text`` is not a ``str``.
    """
    check_count(max_tokens, "max_tokens", minimum=1)
    check_count(overlap, "overlap", minimum=0)
    if overlap >= max_tokens:
        raise ArgumentError(f"overlap ({overlap}) must be less than max_tokens ({max_tokens})", field="overlap")
    if boundary not in BOUNDARIES:
        raise ArgumentError(f"boundary must be one of {', '.join(BOUNDARIES)}; got {boundary!r}", field="boundary")
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}; decode bytes first (data.decode('utf-8'))")
    if not text:
        return []

    def count(start: int, end: int) -> int:
        return models.count_tokens(tok, text[start:end], add_special_tokens=add_special_tokens)

    # Token boundaries between characters, and the tokens of the whole text before each.
    spans = models.view_spans(tok, text, add_special_tokens=False, units="chars")
    bounds, before = [0], [0]
    for i, sp in enumerate(spans):
        nxt = spans[i + 1].start if i + 1 < len(spans) else len(text)
        if bounds[-1] < sp.end <= nxt:
            bounds.append(sp.end)
            before.append(i + 1)
    if bounds[-1] != len(text):
        bounds.append(len(text))
        before.append(len(spans))
    preferred: list[list[int]] = []
    if boundary == "paragraph":
        preferred.append([m.end() for m in _PARAGRAPH_END.finditer(text)])
    if boundary in ("paragraph", "sentence"):
        preferred.append([m.end() for m in _SENTENCE_END.finditer(text)])

    def tokens_before(pos: int) -> int:  # whole-text tokens ending at or before pos
        return before[bisect.bisect_right(bounds, pos) - 1]

    def cut(start: int, after: int) -> tuple[int, int] | None:
        """The furthest end > ``after`` whose chunk from ``start`` fits: ``(end, tokens)``, or None."""
        k = bisect.bisect_right(before, tokens_before(start) + max_tokens) - 1
        reach = max(bounds[k], bounds[min(bisect.bisect_right(bounds, after), len(bounds) - 1)])
        for ends in preferred:  # the last preferred cuts that fit, a few tries
            i = bisect.bisect_right(ends, reach)
            for end in reversed(ends[max(i - _PREFERRED_TRIES, 0) : i]):
                if end <= after:
                    break
                n = count(start, end)
                if n <= max_tokens:
                    return end, n
        lo = bisect.bisect_right(bounds, after)  # the first token boundary after `after`
        k = bisect.bisect_right(bounds, reach) - 1
        while k >= lo:  # token boundaries, backing off by the excess (the first one tried last)
            n = count(start, bounds[k])
            if n <= max_tokens:
                return bounds[k], n
            k = max(k - max(1, n - max_tokens), lo) if k > lo else lo - 1
        return None

    out: list[Chunk] = []
    start = 0
    while start < len(text):
        prev_end = out[-1].end if out else 0
        found = cut(start, prev_end)
        if found is None and start < prev_end:  # the overlap leaves no room: start where the last chunk ended
            start = prev_end
            found = cut(start, prev_end)
        if found is None:
            needed = count(start, bounds[bisect.bisect_right(bounds, start)])
            raise ArgumentError(
                f"max_tokens={max_tokens} is too small for this text: from character {start} the shortest "
                f"chunk that ends between characters needs {needed} tokens",
                field="max_tokens",
                reason="chunk_too_small",
                values={"max_tokens": max_tokens, "start": start, "needed": needed},
            )
        end, n = found
        out.append(Chunk(len(out), text[start:end], n, start, end))
        if end >= len(text):
            break
        nxt = end
        if overlap:  # the first token boundary with at most `overlap` tokens to the end
            k = bisect.bisect_left(before, tokens_before(end) - overlap)
            if start < bounds[k] < end:
                nxt = bounds[k]
        start = nxt
    return out


# ------------------------------------------------------------------------------- context windows


@dataclasses.dataclass(frozen=True, slots=True)
class ContextWindow:
    """A model's context window: ``tokens`` (input and output together), as ``source`` states
    it (``stated``: the source's own wording; "128K" of open models is their config's 131,072),
    ``date``: when the source published it (ISO date); ``tokenizer``: the bytepair name that
    counts its tokens (an encoding of :mod:`bytepair.registry` or an open model of :mod:`bytepair.app.models`)."""

    model: str
    label: str
    tokenizer: str
    tokens: int
    stated: str
    source: str
    date: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_OPENAI_MODELS = "https://platform.openai.com/docs/models"
#: Models' context windows (tokens), compiled 2026-12-02 from the sources named; the first row of
#: each tokenizer is the model the page names by default.
CONTEXT_WINDOWS: tuple[ContextWindow, ...] = (
    ContextWindow("gpt-4o", "GPT-4o", "o200k_base", 128_000, "128,000 context window", f"{_OPENAI_MODELS}/gpt-4o", "2024-05-13"),
    ContextWindow("gpt-4.1", "GPT-4.1", "o200k_base", 1_047_576, "1,047,576 context window", f"{_OPENAI_MODELS}/gpt-4.1", "2025-04-14"),
    ContextWindow("o3", "o3", "o200k_base", 200_000, "200,000 context window", f"{_OPENAI_MODELS}/o3", "2025-04-16"),
    ContextWindow("gpt-4-turbo", "GPT-4 Turbo", "cl100k_base", 128_000, "128,000 context window", f"{_OPENAI_MODELS}/gpt-4-turbo", "2024-04-09"),
    ContextWindow("gpt-4", "GPT-4", "cl100k_base", 8_192, "8,192 context window", f"{_OPENAI_MODELS}/gpt-4", "2023-06-13"),
    ContextWindow("gpt-3.5-turbo", "GPT-3.5 Turbo", "cl100k_base", 16_385, "16,385 context window", f"{_OPENAI_MODELS}/gpt-3.5-turbo", "2024-01-25"),
    ContextWindow("text-davinci-003", "text-davinci-003", "p50k_base", 4_097, "4,097 tokens", "https://platform.openai.com/docs/deprecations", "2022-11-28"),
    ContextWindow("gpt2", "GPT-2", "gpt2", 1_024, "n_ctx 1024", "https://huggingface.co/openai-community/gpt2/blob/main/config.json", "2019-02-14"),
    ContextWindow("llama-3.1", "Llama 3.1", "llama3", 131_072, "128K context length", "https://huggingface.co/meta-llama/Llama-3.1-8B", "2024-07-23"),
    ContextWindow("llama-3", "Llama 3", "llama3", 8_192, "Context length 8k", "https://huggingface.co/meta-llama/Meta-Llama-3-8B (model card)", "2024-04-18"),
    ContextWindow("qwen3", "Qwen 3", "qwen3", 32_768, "32,768 natively (131,072 with YaRN)", "https://huggingface.co/Qwen/Qwen3-8B", "2025-04-29"),
    ContextWindow("gemma-3", "Gemma 3 (4B-27B)", "gemma3", 131_072, "128K context window (1B: 32K)", "https://ai.google.dev/gemma/docs/core", "2025-03-12"),
    ContextWindow("deepseek-v3", "DeepSeek V3", "deepseek_v3", 131_072, "Context Length 128K", "https://huggingface.co/deepseek-ai/DeepSeek-V3", "2024-12-26"),
    ContextWindow("gpt-oss", "gpt-oss", "gpt-oss", 131_072, "128k context length", "https://huggingface.co/openai/gpt-oss-120b", "2025-08-05"),
    ContextWindow("mistral-nemo", "Mistral NeMo", "mistral-nemo", 131_072, "up to 128k tokens", "https://mistral.ai/news/mistral-nemo", "2024-07-18"),
)  # fmt: skip


#: The Chat view's formats (``bytepair.app.chat_formats.chat_formats`` ids) -> the model of
#: :data:`CONTEXT_WINDOWS` whose window their count is shown against: the OpenAI formats, and
#: open-model formats whose model is not their tokenizer's default (the format, not the tokenizer,
#: picks the model: the Llama 3 tokenizer file's own template is Llama 3.0's, 8,192 tokens). Other
#: open-model formats (chat templates, Mistral's) use the first row of their tokenizer.
CHAT_FORMAT_MODELS: dict[str, str] = {
    "chatml-o200k": "gpt-4o",
    "chatml-cl100k": "gpt-4-turbo",
    "chatml-gpt-3.5": "gpt-3.5-turbo",
    "harmony": "gpt-oss",
    "template:llama3": "llama-3",
}


def chat_context_models(formats: list[dict[str, Any]]) -> dict[str, str]:
    """``{chat format id: model of CONTEXT_WINDOWS}`` for the Chat view's ``formats``
    (``bytepair.app.chat_formats.chat_formats`` rows: ``id``, ``tokenizer``); formats without one are left out."""
    out = {}
    for f in formats:
        model = CHAT_FORMAT_MODELS.get(f["id"])
        if model is None:
            rows = context_windows(f.get("tokenizer"))
            model = rows[0].model if rows else None
        if model is not None:
            out[f["id"]] = model
    return out


def context_windows(tokenizer: str | None = None) -> list[ContextWindow]:
    """The rows of :data:`CONTEXT_WINDOWS` (those counted by ``tokenizer``, a bytepair tokenizer
    name, when given), the default model first."""
    return [w for w in CONTEXT_WINDOWS if tokenizer is None or w.tokenizer == tokenizer]
