"""A rendered chat prompt's tokens split into each message's content and the template's overhead
(:func:`chat_breakdown`; :func:`build_breakdown` for renderers of other formats,
:mod:`bytepair.chat.openai` and :mod:`bytepair.chat.mistral`), with each token's character span
(:func:`token_char_spans`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..errors import ArgumentError, ChatTemplateError
from .template import (
    encode_rendered,
    get_chat_template,
    normalize_messages,
    render_chat_template,
    special_tokens_of,
    templates_of,
)


@dataclass(frozen=True)
class ChatToken:
    """One token of a rendered chat.

    ``start``/``end``: the smallest span of the rendered text covering the
    token's bytes, in ``units`` (characters or UTF-16 code units); tokens that are
    fragments of one character share its span. ``message``: index of the message
    the token is counted for, or ``None`` for the overhead after the last message
    (the generation prompt) and for tool definitions. ``part``: ``"content"``,
    ``"overhead"`` or ``"tools"`` (the rendered tool definitions).
    ``special``: the id is one of the tokenizer's special (added) tokens."""

    id: int
    start: int
    end: int
    message: int | None
    part: str
    special: bool


@dataclass(frozen=True)
class MessageCount:
    """Counts for one message (tokens). ``content_spans``: where its content was
    found in the rendered text (``[start, end)`` pairs, same units as the tokens);
    empty, with ``content_found=False``, when the template rewrote it beyond
    recognition (then all its tokens count as overhead)."""

    index: int
    role: str
    content_tokens: int
    overhead_tokens: int
    content_found: bool
    content_spans: list[tuple[int, int]] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return self.content_tokens + self.overhead_tokens


@dataclass(frozen=True)
class ChatBreakdown:
    """A rendered conversation, its tokens and who they are counted for.

    ``sum(m.tokens for m in messages) + trailing_tokens == total == len(ids)``.
    ``trailing_tokens``: tokens after the last message (the generation prompt and
    any closing text). ``format``: what produced the prompt (``"chat_template"``,
    ``"chatml"``, ``"harmony"``); ``template_name``: the template used
    (``"default"`` for a tokenizer's single template, a name of its named
    templates, ``None`` for one passed as text); ``tokenizer_name``: the
    tokenizer's ``name`` (``"o200k_base"``, the tokenizer.json's name), if it has one.

    Tool definitions (``tools=``): ``tools_tokens`` counts the tokens the tools
    add (their tokens have ``part="tools"`` and ``message=None``; they are in
    no message's counts, so ``sum(m.tokens for m in messages) + trailing_tokens
    + tools_tokens == total``); ``tools_spans``: where the rendered tools are in
    ``text`` (``[start, end)`` pairs, same units as the tokens). ``estimate``:
    true where the layout is not the model maker's own (OpenAI ChatML with
    tools, see :func:`bytepair.chat.openai.chatml_breakdown`). ``tools_ignored``: tools were
    given but the format does not use them (a chat template that renders the same prompt
    without them, as Llama 3.0's, Gemma 3's and DeepSeek V3's): ``tools_tokens`` is 0 because
    they are not in the prompt, not because they are free."""

    text: str
    ids: list[int]
    tokens: list[ChatToken]
    messages: list[MessageCount]
    trailing_tokens: int
    total: int
    units: str
    format: str
    template_name: str | None = None
    tokenizer_name: str | None = None
    tools_tokens: int = 0
    tools_spans: list[tuple[int, int]] = field(default_factory=list)
    estimate: bool = False
    tools_ignored: bool = False

    @property
    def overhead_tokens(self) -> int:
        """All tokens that are not message content."""
        return self.total - sum(m.content_tokens for m in self.messages)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: the fields above, tokens as dicts, plus ``overhead_tokens``."""
        d = asdict(self)
        d["overhead_tokens"] = self.overhead_tokens
        for m, mc in zip(d["messages"], self.messages):
            m["tokens"] = mc.tokens
            m["content_spans"] = [list(s) for s in mc.content_spans]
        d["tools_spans"] = [list(s) for s in self.tools_spans]
        return d


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _content_strings(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [p["text"] for p in content if isinstance(p, Mapping) and isinstance(p.get("text"), str)]
    return []


def _locate(text: str, needle: str, lo: int, hi: int, taken: list[tuple[int, int]], *, last: bool) -> int:
    """Start of ``needle`` in ``text[lo:hi]`` not overlapping ``taken``, or -1."""
    if not needle:
        return -1
    if last:
        pos = text.rfind(needle, lo, hi)
        while pos >= 0 and any(s < pos + len(needle) and pos < e for s, e in taken):
            pos = text.rfind(needle, lo, pos + len(needle) - 1)
        return pos
    pos = text.find(needle, lo, hi)
    while pos >= 0 and any(s < pos + len(needle) and pos < e for s, e in taken):
        pos = text.find(needle, pos + 1, hi)
    return pos


def token_char_spans(tokenizer: Any, text: str, ids: Sequence[int]) -> list[tuple[int, int]]:
    """``[start, end)`` in characters of ``text`` for each token of ``ids`` (its encoding).

    Uses the tokens' bytes (``tokenizer.decode_single_token_bytes(id)`` or
    ``tokenizer.token_bytes(id)``) when they join to ``text``'s UTF-8 (byte-level
    BPE, byte fallback); a token that starts or ends inside a character gets that
    whole character. Otherwise decodes growing prefixes (``tokenizer.decode``),
    quadratic in the number of tokens; for a tokenizer that normalizes the text
    (Qwen's NFC) the spans are then approximate, clamped to ``text``.
    """
    getter = getattr(tokenizer, "decode_single_token_bytes", None) or getattr(tokenizer, "token_bytes", None)
    data = text.encode("utf-8")
    if getter is not None:
        pieces = [getter(i) for i in ids]
        if b"".join(pieces) == data:
            char_at = []  # byte offset -> index of the character it belongs to
            for ci, ch in enumerate(text):
                char_at.extend([ci] * len(ch.encode("utf-8")))
            char_at.append(len(text))
            spans, pos = [], 0
            for p in pieces:
                if not p:
                    spans.append((char_at[pos], char_at[pos]))
                    continue
                start = char_at[pos]
                end = char_at[pos + len(p) - 1] + 1
                spans.append((start, end))
                pos += len(p)
            return spans
    spans, prev = [], 0
    for k in range(1, len(ids) + 1):
        cur = min(len(text), max(prev, len(tokenizer.decode(list(ids[:k])).rstrip("\ufffd"))))
        spans.append((prev, cur))
        prev = cur
    return spans


def _encode_with_spans(tokenizer: Any, text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """Ids (as :func:`encode_rendered`) and character spans: the tokenizer's own
    ``encode_with_spans(text, add_special_tokens=False)`` when it has one (exact
    under normalizers), else :func:`token_char_spans`."""
    ews = getattr(tokenizer, "encode_with_spans", None)
    if ews is not None:
        try:
            spans = ews(text, add_special_tokens=False)
        except TypeError:  # a tiktoken-style bytepair.Tokenizer
            spans = None
        if spans is not None:
            return [s.id for s in spans], [(s.start, s.end) for s in spans]
    ids = encode_rendered(tokenizer, text)
    return ids, token_char_spans(tokenizer, text, ids)


def _utf16_index(text: str) -> list[int]:
    out, n = [0], 0
    for ch in text:
        n += 2 if ord(ch) > 0xFFFF else 1
        out.append(n)
    return out


def _special_ids(tokenizer: Any) -> set[int]:
    st = getattr(tokenizer, "special_tokens", None)
    if isinstance(st, Mapping):
        return {int(v) for v in st.values() if isinstance(v, int)}
    if st is not None:
        try:
            return {int(v) for v in st if isinstance(v, int)}
        except TypeError:
            return set()
    return set()


def build_breakdown(
    *,
    text: str,
    ids: list[int],
    spans: list[tuple[int, int]],
    roles: list[str],
    regions: list[int],
    content_spans: list[list[tuple[int, int]]],
    special: set[int],
    units: str,
    fmt: str,
    template_name: str | None = None,
    tokenizer_name: str | None = None,
    tools_spans: Sequence[tuple[int, int]] = (),
    estimate: bool = False,
) -> ChatBreakdown:
    """Assemble a :class:`ChatBreakdown` (shared by the template and OpenAI formats).

    ``regions[i]``: character offset where message ``i``'s text ends (message
    ``i`` owns ``[regions[i-1], regions[i])``, message 0 from 0; after the last:
    trailing). ``content_spans[i]``: its content's character spans;
    ``tools_spans``: the rendered tool definitions' character spans. A token is
    counted where its first character lies: content first, then tools, else
    its region's overhead."""
    if units not in ("chars", "utf16"):
        raise ArgumentError('units must be "chars" or "utf16"', field="units")
    owner = []
    for s, _e in spans:
        msg = next((i for i, end in enumerate(regions) if s < end), None)
        part = "overhead"
        for i, cs in enumerate(content_spans):
            if any(a <= s < b for a, b in cs):
                msg, part = i, "content"
                break
        else:
            if any(a <= s < b for a, b in tools_spans):
                msg, part = None, "tools"
        owner.append((msg, part))
    conv = _utf16_index(text) if units == "utf16" else None

    def u(x: int) -> int:
        return conv[x] if conv is not None else x

    tokens = [
        ChatToken(id=t, start=u(s), end=u(e), message=m, part=p, special=t in special)
        for t, (s, e), (m, p) in zip(ids, spans, owner)
    ]
    messages = []
    for i, role in enumerate(roles):
        content = sum(1 for m, p in owner if m == i and p == "content")
        overhead = sum(1 for m, p in owner if m == i and p == "overhead")
        messages.append(
            MessageCount(
                index=i,
                role=role,
                content_tokens=content,
                overhead_tokens=overhead,
                content_found=bool(content_spans[i]),
                content_spans=[(u(a), u(b)) for a, b in content_spans[i]],
            )
        )
    trailing = sum(1 for m, p in owner if m is None and p != "tools")
    return ChatBreakdown(
        text=text,
        ids=list(ids),
        tokens=tokens,
        messages=messages,
        trailing_tokens=trailing,
        total=len(ids),
        units=units,
        format=fmt,
        template_name=template_name,
        tokenizer_name=tokenizer_name,
        tools_tokens=sum(1 for _m, p in owner if p == "tools"),
        tools_spans=[(u(a), u(b)) for a, b in tools_spans],
        estimate=estimate,
    )


def _tools_spans(
    template: str, messages, text: str, *, add_generation_prompt, continue_final_message, common
) -> tuple[list, bool]:
    """Where the tools changed the rendered ``text``: the span between the common
    prefix and the common suffix of ``text`` and the same conversation rendered
    without tools (``[]`` when that rendering fails or is equal), and whether the
    template ignored the tools (the rendering without them is equal)."""
    try:
        bare = render_chat_template(
            template,
            messages,
            add_generation_prompt=add_generation_prompt,
            continue_final_message=continue_final_message,
            **{**common, "tools": None},
        )
    except ChatTemplateError:
        return [], False
    if bare == text:
        return [], True
    p = _common_prefix(text, bare)
    limit = min(len(text), len(bare)) - p
    q = 0
    while q < limit and text[len(text) - 1 - q] == bare[len(bare) - 1 - q]:
        q += 1
    return ([(p, len(text) - q)] if p < len(text) - q else []), False


def chat_breakdown(
    tokenizer: Any,
    messages: Sequence[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = False,
    tools: Sequence[Mapping[str, Any]] | None = None,
    documents: Sequence[Mapping[str, Any]] | None = None,
    chat_template: str | None = None,
    continue_final_message: bool | str = False,
    units: str = "chars",
    **template_kwargs: Any,
) -> ChatBreakdown:
    """Render and tokenize a conversation (as :func:`apply_chat_template`) and
    count every token for a message's content, a message's overhead, or the
    trailing overhead (the generation prompt).

    The rule:

    1. Regions. Message ``i`` owns the text from where message ``i-1``'s ends to
       the end of the longest common prefix of the full prompt and the prompt of
       ``messages[:i+1]`` rendered without the generation prompt (so BOS and
       the first header go to message 0). The rest after the last message is
       trailing. A prefix the template rejects gives its message an empty region
       (its text goes to the next one).
    2. Content. Each string of a message's content (``content``, or the
       ``text`` of its parts) is looked for in the message's own region (last
       occurrence), then - for templates that move text, like Gemma's system
       prompt folded into the first user turn or DeepSeek's system prompts
       gathered at the start - anywhere not already claimed (first occurrence),
       as is and then stripped of surrounding whitespace (templates that
       ``trim``).
    3. Tokens. The whole prompt is tokenized once (with the tokenizer's
       ``encode_with_spans`` when it has one, else :func:`token_char_spans`);
       a token is counted where
       its first character lies: in a content span -> that message's content,
       else the region's overhead. So the counts add up to the total exactly.

    Limits: content the template rewrites (Qwen 3 splits ``<think>`` out of an
    assistant message) is found only in its unchanged part or not at all
    (``content_found=False``, everything counted as overhead); a token that
    straddles a boundary counts for the side it starts on; tool calls and
    reasoning rendered from other keys count as overhead.

    Tools (``tools=``, passed to the template as transformers does): the text
    between the common prefix and the common suffix of the prompt rendered
    with and without tools is the tools' (``part="tools"``, counted in
    ``tools_tokens``), except message content found in it. For a template
    that writes tools into the first user turn (Llama 3.1) that span includes
    the turn's header; templates that ignore ``tools`` give none and
    ``tools_ignored=True``.

    Args: as :func:`apply_chat_template`, plus ``units``: ``"chars"``
    (characters) or ``"utf16"`` (UTF-16 code units, for JavaScript) for the spans.

    Returns:
        :class:`ChatBreakdown` (``format="chat_template"``).

    Raises:
        as :func:`apply_chat_template`.
    """
    templates = templates_of(tokenizer)
    template = get_chat_template(tokenizer, chat_template=chat_template, tools=tools)
    if isinstance(templates, dict):
        template_name = next((k for k, v in templates.items() if v == template), None)
    else:
        template_name = "default" if templates is not None and template == templates else None
    specials = special_tokens_of(tokenizer)
    common = dict(tools=tools, documents=documents, special_tokens=specials, **template_kwargs)
    text = render_chat_template(
        template,
        messages,
        add_generation_prompt=add_generation_prompt,
        continue_final_message=continue_final_message,
        **common,
    )
    norm = normalize_messages(messages)
    regions, prev = [], 0
    for k in range(1, len(norm) + 1):
        try:
            part = render_chat_template(template, messages[:k], add_generation_prompt=False, **common)
            end = max(prev, _common_prefix(part, text))
        except ChatTemplateError:
            end = prev
        regions.append(end)
        prev = end
    content_spans: list[list[tuple[int, int]]] = [[] for _ in norm]
    taken: list[tuple[int, int]] = []
    pending = []
    for i, m in enumerate(norm):
        lo = regions[i - 1] if i else 0
        for s in _content_strings(m.get("content")):
            if not s.strip():  # nothing to find: no content tokens
                content_spans[i].append((regions[i], regions[i]))
                continue
            for needle in dict.fromkeys((s, s.strip())):
                pos = _locate(text, needle, lo, regions[i], taken, last=True)
                if pos >= 0:
                    content_spans[i].append((pos, pos + len(needle)))
                    taken.append((pos, pos + len(needle)))
                    break
            else:
                pending.append((i, s))
    for i, s in pending:
        for needle in dict.fromkeys((s, s.strip())):
            pos = _locate(text, needle, 0, len(text), taken, last=False)
            if pos >= 0:
                content_spans[i].append((pos, pos + len(needle)))
                taken.append((pos, pos + len(needle)))
                break
    tools_spans, tools_ignored = (
        _tools_spans(
            template,
            messages,
            text,
            add_generation_prompt=add_generation_prompt,
            continue_final_message=continue_final_message,
            common=common,
        )
        if tools
        else ([], False)
    )
    ids, spans = _encode_with_spans(tokenizer, text)
    b = build_breakdown(
        text=text,
        ids=ids,
        spans=spans,
        roles=[str(m.get("role", "")) for m in norm],
        regions=regions,
        content_spans=content_spans,
        special=_special_ids(tokenizer),
        units=units,
        fmt="chat_template",
        template_name=template_name,
        tokenizer_name=getattr(tokenizer, "name", None),
        tools_spans=tools_spans,
    )
    return replace(b, tools_ignored=True) if tools_ignored else b


__all__ = ["ChatBreakdown", "ChatToken", "MessageCount", "build_breakdown", "chat_breakdown", "token_char_spans"]
