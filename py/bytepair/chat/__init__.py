"""Chat templates: render a conversation the way the model sees it, and count it.

A model's ``tokenizer_config.json`` carries a Jinja chat template that wraps
every message in role headers, separators and special tokens. This module
renders it exactly as Hugging Face ``transformers`` (5.x,
``PreTrainedTokenizerBase.apply_chat_template`` and
``utils/chat_template_utils.py``) does, so the text and the ids equal
``transformers``' for the same files and arguments:

* the environment: ``jinja2.sandbox.ImmutableSandboxedEnvironment`` with
  ``trim_blocks=True``, ``lstrip_blocks=True``, the ``loopcontrols`` extension
  and a ``{% generation %}`` block tag (rendered as its body); the globals
  ``raise_exception(message)`` (raises ``jinja2.TemplateError``),
  ``strftime_now(format)`` (local time), ``dict`` and ``namespace`` (which
  refuses attribute names starting with ``_``); the ``tojson`` filter replaced
  by ``json.dumps(x, ensure_ascii=False, indent=None, separators=None,
  sort_keys=False)`` (Jinja's own escapes HTML characters);
* the variables: ``messages``, ``tools``, ``documents``,
  ``add_generation_prompt``, the named special tokens (``bos_token``,
  ``eos_token``, ``unk_token``, ``sep_token``, ``pad_token``, ``cls_token``,
  ``mask_token`` and the model-specific ``*_token`` names of the config, see
  :func:`special_tokens_map`), then the caller's extra keyword arguments (which
  win over the special tokens);
* the messages as ``transformers`` normalizes them: keys whose value is
  ``None`` dropped, the data rebuilt from plain JSON types, and a message's
  reasoning (``reasoning_content`` / ``thinking`` / ``reasoning``) copied to
  both ``thinking`` and ``reasoning_content``;
* the rendered text tokenized with ``add_special_tokens=False``: the template
  writes BOS itself.

jinja2 is imported on first use, so ``import bytepair`` does not need it.

The per-message breakdown (:func:`chat_breakdown`) splits the tokens of the
rendered prompt into each message's content and the template's overhead, and
the overhead after the last message (the generation prompt); see its
docstring for the rule and its limits.

The sub-package's other modules build on this one: :mod:`bytepair.chat.openai` (ChatML,
harmony), :mod:`bytepair.chat.mistral` (Mistral NeMo), :mod:`bytepair.chat.tools` (tool
definitions); this module imports none of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from ..errors import ArgumentError, ChatTemplateError

#: The named special-token attributes of ``transformers``' tokenizers
#: (``PreTrainedTokenizerBase.SPECIAL_TOKENS_ATTRIBUTES``, transformers 5.x), in order.
SPECIAL_TOKEN_ATTRIBUTES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")

#: Names a message's reasoning is passed under (transformers 5.x); the first is the standard one.
_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")

#: ``apply_chat_template`` options of transformers that bytepair does not implement.
_UNSUPPORTED = ("sanitize_control_tokens", "return_assistant_tokens_mask")

#: What transformers appends to the message to continue, to find where it ends in the rendered text.
_CONTINUE_TAG = "CONTINUE_FINAL_MESSAGE_TAG "


# --------------------------------------------------------------------------- environment


def _token_text(value: Any) -> str | None:
    """A special-token value of a ``tokenizer_config.json`` as text: a string, or an
    ``AddedToken`` object (``{"__type": "AddedToken", "content": ...}``)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def special_tokens_map(config: Mapping[str, Any] | None) -> dict[str, str]:
    """The special tokens a chat template sees, from a ``tokenizer_config.json`` dict.

    As ``transformers``' ``special_tokens_map`` (5.x): ``bos_token``,
    ``eos_token``, ``unk_token``, ``sep_token``, ``pad_token``, ``cls_token``,
    ``mask_token`` when set (not ``None``), then the model-specific names - every
    other top-level key ending in ``_token`` whose value is a token, and the
    entries of an ``extra_special_tokens`` dict (Gemma 3's ``boi_token``, ...).
    Values: strings (an ``AddedToken`` dict gives its ``content``).

    Limit: defaults a ``transformers`` tokenizer class sets in code (Gemma's
    ``mask_token="<mask>"``) are not in the file and so not here; the shipped
    templates do not read them.
    """
    out: dict[str, str] = {}
    if not config:
        return out
    for attr in SPECIAL_TOKEN_ATTRIBUTES:
        text = _token_text(config.get(attr))
        if text is not None:
            out[attr] = text
    for key, value in config.items():
        if key.endswith("_token") and key not in SPECIAL_TOKEN_ATTRIBUTES:
            text = _token_text(value)
            if text is not None:
                out[key] = text
    extra = config.get("extra_special_tokens")
    if isinstance(extra, Mapping):
        for key, value in extra.items():
            text = _token_text(value)
            if text is not None:
                out[key] = text
    return out


@lru_cache(maxsize=32)
def _compile(template: str):
    """The template compiled in transformers' environment (cached per template text)."""
    try:
        import jinja2
        import jinja2.ext
        import jinja2.nodes
        import jinja2.utils
        from jinja2.sandbox import ImmutableSandboxedEnvironment
    except ImportError as e:  # Pyodide without the jinja2 / MarkupSafe wheels
        raise ImportError(
            "chat templates need jinja2 (and MarkupSafe): pip install jinja2; "
            "in Pyodide install the site's jinja2 and MarkupSafe wheels"
        ) from e

    class GenerationBlock(jinja2.ext.Extension):
        """``{% generation %}...{% endgeneration %}``: transformers marks assistant
        text with it (for its assistant-token mask); it renders as its body."""

        tags = {"generation"}  # (a set: jinja2.ext.Extension.tags)

        def parse(self, parser):
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

        @staticmethod
        def _body(caller):
            return caller()

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return datetime.now().strftime(format)

    class TemplateDict:
        """``dict(...)`` and ``dict.fromkeys(...)`` without exposing the type itself."""

        def __call__(self, *args, **kwargs):
            return dict(*args, **kwargs)

        def fromkeys(self, *args, **kwargs):
            return dict.fromkeys(*args, **kwargs)

    def _check_name(name):
        if isinstance(name, str) and name.startswith("_"):
            raise jinja2.exceptions.SecurityError(
                f"Chat templates cannot store underscore-prefixed attributes on a namespace, but got {name!r}. "
                "Please rename the attribute."
            )

    class TemplateNamespace(jinja2.utils.Namespace):
        """Jinja's ``namespace`` refusing underscore-prefixed names."""

        def __init__(*args, **kwargs):  # same signature trick as jinja2.utils.Namespace
            self, args = args[0], args[1:]
            attrs = dict(*args, **kwargs)
            for name in attrs:
                _check_name(name)
            jinja2.utils.Namespace.__init__(self, attrs)

        def __setitem__(self, name, value):
            _check_name(name)
            jinja2.utils.Namespace.__setitem__(self, name, value)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    env.globals["dict"] = TemplateDict()
    env.globals["namespace"] = TemplateNamespace
    try:
        return env.from_string(template)
    except jinja2.exceptions.TemplateSyntaxError as e:
        raise ChatTemplateError(f"the chat template does not compile: {e}", field="chat_template") from e


# --------------------------------------------------------------------------- inputs


def _plain(value: Any) -> Any:
    """``value`` rebuilt from plain JSON types (str, int, float, bool, None, dict,
    list, tuple); anything else becomes ``"<TypeName>"``, as transformers does so
    the sandbox never sees rich objects."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Mapping):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return f"<{type(value).__name__}>"


def normalize_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The messages as ``transformers`` hands them to the template.

    Args:
        messages: a list of dicts (``{"role": ..., "content": ...}`` plus any
            other keys the template reads: ``tool_calls``, ``reasoning_content``...).

    Returns:
        New dicts: keys whose value is ``None`` dropped, values rebuilt from
        plain JSON types, and a message's reasoning (the first non-``None`` of
        ``reasoning_content``, ``thinking``, ``reasoning``) present under both
        ``thinking`` and ``reasoning_content``.

    Raises:
        ArgumentError (field ``"messages"``): ``messages`` is not a list of dicts.
    """
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise ArgumentError("messages must be a list of {'role': ..., 'content': ...} dicts", field="messages")
    out = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise ArgumentError(
                f"message {i} must be a dict like {{'role': 'user', 'content': 'Hi'}}, not {type(message).__name__}",
                field="messages",
            )
        m = _plain({k: v for k, v in message.items() if v is not None})
        reasoning = next((m[k] for k in _REASONING_FIELDS if m.get(k) is not None), None)
        if reasoning is not None:
            m = {"thinking": reasoning, **m, "reasoning_content": reasoning}
        out.append(m)
    return out


def get_chat_template(tokenizer: Any, *, chat_template: str | None = None, tools: Any = None) -> str:
    """The template text to use, chosen as ``transformers``' ``get_chat_template``.

    Args:
        tokenizer: an object with ``.chat_template`` (a string, a dict name ->
            template, or a ``tokenizer_config.json`` list of ``{"name", "template"}``)
            and/or ``.config`` (the ``tokenizer_config.json`` dict, whose
            ``"chat_template"`` is used when the attribute is missing).
        chat_template: a template name (when the tokenizer has named
            templates) or a whole template, or ``None`` for the tokenizer's own.
        tools: when given and the tokenizer has a ``"tool_use"`` template, that
            one is the default.

    Returns:
        The Jinja template text.

    Raises:
        ChatTemplateError (field ``"chat_template"``): the tokenizer has no
            template, or named templates without a ``"default"`` and no name given.
    """
    templates = _templates_of(tokenizer)
    if isinstance(templates, dict):
        if chat_template is not None and chat_template in templates:
            return templates[chat_template]
        if chat_template is None:
            if tools is not None and "tool_use" in templates:
                return templates["tool_use"]
            if "default" in templates:
                return templates["default"]
            raise ChatTemplateError(
                "this tokenizer has several chat templates and none is called 'default': pass "
                f"chat_template= one of {sorted(templates)}",
                field="chat_template",
            )
        return chat_template
    if chat_template is not None:
        return chat_template
    if templates is None:
        raise ChatTemplateError(
            "this tokenizer has no chat template (its tokenizer_config.json has no 'chat_template'): "
            "pass chat_template= a Jinja template",
            field="chat_template",
        )
    return templates


def chat_template_names(tokenizer: Any) -> list[str]:
    """The chat templates a tokenizer offers: ``[]`` (none), ``["default"]``
    (one unnamed template), or the names of its named templates (sorted)."""
    templates = _templates_of(tokenizer)
    if templates is None:
        return []
    if isinstance(templates, dict):
        return sorted(templates)
    return ["default"]


def _templates_of(tokenizer: Any) -> str | dict[str, str] | None:
    templates = getattr(tokenizer, "chat_template", None)
    if templates is None:
        config = getattr(tokenizer, "config", None)
        if isinstance(config, Mapping):
            templates = config.get("chat_template")
    if isinstance(templates, (list, tuple)):  # tokenizer_config.json's form of named templates
        templates = {t["name"]: t["template"] for t in templates}
    return templates


def _special_tokens_of(tokenizer: Any) -> dict[str, str]:
    config = getattr(tokenizer, "config", None)
    out = special_tokens_map(config if isinstance(config, Mapping) else None)
    for attr in ("bos_token", "eos_token"):  # the loader's attributes win (same file, already resolved)
        text = _token_text(getattr(tokenizer, attr, None))
        if text is not None:
            out[attr] = text
    return out


# --------------------------------------------------------------------------- rendering


def _render_raw(template: str, messages: list[dict], *, add_generation_prompt: bool, tools, documents, variables):
    import jinja2

    compiled = _compile(template)
    try:
        return compiled.render(
            messages=messages,
            tools=tools,
            documents=documents,
            add_generation_prompt=add_generation_prompt,
            **variables,
        )
    except jinja2.exceptions.TemplateError as e:
        raise ChatTemplateError(str(e) or type(e).__name__) from e
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as e:
        raise ChatTemplateError(f"the chat template failed: {type(e).__name__}: {e}") from e


def render_chat_template(
    template: str,
    messages: Sequence[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = False,
    tools: Sequence[Mapping[str, Any]] | None = None,
    documents: Sequence[Mapping[str, Any]] | None = None,
    special_tokens: Mapping[str, str] | None = None,
    continue_final_message: bool | str = False,
    **template_kwargs: Any,
) -> str:
    """Render a chat template as ``transformers`` does (see the module docstring).

    Args:
        template: the Jinja template text.
        messages: the conversation, a non-empty list of dicts (``role``, ``content``, ...).
        add_generation_prompt: append the header that opens the assistant's reply.
        tools: JSON schemas of the tools (dicts), or ``None``.
        documents: dicts with ``title`` and ``text``, or ``None``.
        special_tokens: the named special tokens (``{"bos_token": "<s>", ...}``;
            see :func:`special_tokens_map`).
        continue_final_message: end the prompt where the last message's
            content ends (no end-of-turn), so the model continues it (prefill);
            a string names the field to continue (``"reasoning_content"``).
            As transformers: a tag is appended to that field before rendering
            and the text is cut where the tag lands.
        **template_kwargs: extra template variables (``enable_thinking=False``,
            ``date_string=...``); they win over ``special_tokens``.

    Returns:
        The rendered prompt (characters).

    Raises:
        ChatTemplateError: the template rejects the conversation (its own
            message; ``message_index``: the first message whose addition makes it
            fail, when rendering the shorter prefixes succeeds), or does not compile.
        ArgumentError: an empty conversation, messages that are not dicts,
            tools or documents that are not dicts; ``continue_final_message``
            with ``add_generation_prompt``, or on a field the last message or
            the template lacks, or that the template rewrites (transformers'
            messages).
        ImportError: jinja2 is not installed.
    """
    for name in _UNSUPPORTED:
        if name in template_kwargs:
            raise ArgumentError(f"{name} is not supported by bytepair's chat templates", field=name)
    norm = normalize_messages(messages)
    if not norm:
        raise ArgumentError(
            "Cannot apply chat template to an empty conversation. Provide at least one message.", field="messages"
        )
    if tools is not None:
        if not all(isinstance(t, Mapping) for t in tools):
            raise ArgumentError("tools must be a list of JSON schemas (dicts)", field="tools")
        tools = _plain(list(tools))
    if documents is not None:
        if not all(isinstance(d, Mapping) for d in documents):
            raise ArgumentError("Documents should be a list of dicts with 'title' and 'text' keys!", field="documents")
        documents = _plain(list(documents))
    variables = _plain({**(special_tokens or {}), **template_kwargs})
    render = {
        "add_generation_prompt": add_generation_prompt,
        "tools": tools,
        "documents": documents,
        "variables": variables,
    }
    final_text = _mark_continuation(template, norm, continue_final_message, add_generation_prompt)
    try:
        text = _render_raw(template, norm, **render)
    except ChatTemplateError as e:
        if e.field == "messages":
            e.message_index = _failing_index(template, norm, str(e), render)
        raise
    if final_text is None:
        return text
    tag = _CONTINUE_TAG.strip()
    if final_text.strip() not in text or tag not in text:
        raise ArgumentError(
            "continue_final_message is set but the final message does not appear in the chat after "
            "applying the chat template! This can happen if the chat template deletes portions of "
            "the final message. Please verify the chat template and final message in your chat to "
            "ensure they are compatible."
            f"Final message to continue: {final_text.strip()}\nRendered chat:\n{text}",
            field="continue_final_message",
        )
    at = text.rindex(tag)
    # the template kept the tag's trailing space: cut exactly; else it trimmed the message: cut and rstrip
    return text[:at] if text[at : at + len(_CONTINUE_TAG)] == _CONTINUE_TAG else text[:at].rstrip()


def _mark_continuation(template: str, norm: list[dict], cont: bool | str, add_generation_prompt: bool) -> str | None:
    """Append transformers' tag to the field of the last message to continue (in
    place, on the normalized copy); return that field's text, or ``None``."""
    if not cont:
        return None
    field = "continue_final_message"
    if add_generation_prompt:
        raise ArgumentError(
            "continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when "
            "you want the model to continue the final message, and add_generation_prompt when you want to add a "
            "header that will prompt it to start a new assistant message instead.",
            field=field,
        )
    name = cont if isinstance(cont, str) else "content"
    last = norm[-1]
    final = last.get(name)
    if final is None:
        raise ArgumentError(
            f'continue_final_message is set but the final message has no "{name}" to continue!', field=field
        )
    fields = [f for f in _REASONING_FIELDS if last.get(f) == final] if name in _REASONING_FIELDS else [name]
    if not any(f in template for f in fields):
        raise ArgumentError(
            f'continue_final_message is set to "{name}" but this is not an accepted field in the chat_template',
            field=field,
        )
    if isinstance(final, (list, tuple)):
        for block in reversed(final):
            if isinstance(block, dict) and "text" in block:
                text = block["text"]
                block["text"] = text + _CONTINUE_TAG
                return text
        raise ArgumentError(
            "continue_final_message is set but we could not find any text to continue in the final message!",
            field=field,
        )
    for f in fields:
        last[f] = last[f] + _CONTINUE_TAG
    return final


def _failing_index(template: str, norm: list[dict], message: str, render: dict) -> int | None:
    """The first k such that messages[:k+1] fails with the same message while
    messages[:k] renders (or k == 0)."""
    for k in range(1, len(norm) + 1):
        try:
            _render_raw(template, norm[:k], **render)
        except ChatTemplateError as e:
            return k - 1 if str(e) == message else None
    return None


def _encode(tokenizer: Any, text: str) -> list[int]:
    """Token ids of ``text`` with the tokenizer's added/special tokens recognized
    and no BOS/EOS added (transformers' ``add_special_tokens=False``)."""
    try:
        return list(tokenizer.encode(text, add_special_tokens=False))
    except TypeError:  # a bytepair.Tokenizer: tiktoken-style special-token switch
        return list(tokenizer.encode(text, allowed_special="all"))


def apply_chat_template(
    tokenizer: Any,
    messages: Sequence[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = False,
    tokenize: bool = True,
    tools: Sequence[Mapping[str, Any]] | None = None,
    documents: Sequence[Mapping[str, Any]] | None = None,
    chat_template: str | None = None,
    continue_final_message: bool | str = False,
    **template_kwargs: Any,
) -> list[int] | str:
    """The conversation as the model sees it: token ids, or (``tokenize=False``) text.

    Equal to ``transformers``' ``tokenizer.apply_chat_template(messages,
    add_generation_prompt=..., tokenize=..., tools=..., documents=...,
    chat_template=..., return_dict=False, **template_kwargs)`` for the same
    ``tokenizer.json`` / ``tokenizer_config.json``.

    Args:
        tokenizer: a tokenizer loaded with its ``tokenizer_config.json``
            (``bytepair.from_tokenizer_json(..., config=...)``): it needs
            ``.encode(text, add_special_tokens=False)`` and ``.chat_template``
            or ``.config``; ``.bos_token`` / ``.eos_token`` / ``.config`` give
            the special-token variables.
        messages: list of dicts with ``role`` and ``content`` (and whatever else
            the template reads).
        add_generation_prompt: append the opening of the assistant's reply.
        tokenize: ids (``True``) or the rendered text (``False``).
        tools, documents: passed to the template (lists of dicts).
        chat_template: a template name (for tokenizers with named templates) or
            a whole template text; default: the tokenizer's.
        continue_final_message: end with the last message open (see
            :func:`render_chat_template`).
        **template_kwargs: extra template variables.

    Returns:
        ``list[int]`` (token ids; the text encoded with ``add_special_tokens=False``,
        since the template writes BOS itself) or ``str``.

    Raises:
        ChatTemplateError: no template, or the template rejects the conversation
            (the template's message, ``field="messages"``, ``message_index``).
        ArgumentError: bad messages / tools / documents, an empty conversation.
    """
    template = get_chat_template(tokenizer, chat_template=chat_template, tools=tools)
    text = render_chat_template(
        template,
        messages,
        add_generation_prompt=add_generation_prompt,
        tools=tools,
        documents=documents,
        special_tokens=_special_tokens_of(tokenizer),
        continue_final_message=continue_final_message,
        **template_kwargs,
    )
    return _encode(tokenizer, text) if tokenize else text


# --------------------------------------------------------------------------- breakdown


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
    """Ids (as :func:`_encode`) and character spans: the tokenizer's own
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
    ids = _encode(tokenizer, text)
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
    templates = _templates_of(tokenizer)
    template = get_chat_template(tokenizer, chat_template=chat_template, tools=tools)
    if isinstance(templates, dict):
        template_name = next((k for k, v in templates.items() if v == template), None)
    else:
        template_name = "default" if templates is not None and template == templates else None
    specials = _special_tokens_of(tokenizer)
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


__all__ = [
    "SPECIAL_TOKEN_ATTRIBUTES",
    "ChatBreakdown",
    "ChatToken",
    "MessageCount",
    "apply_chat_template",
    "build_breakdown",
    "chat_breakdown",
    "chat_template_names",
    "get_chat_template",
    "normalize_messages",
    "render_chat_template",
    "special_tokens_map",
    "token_char_spans",
]
