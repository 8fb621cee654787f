"""Chat templates rendered exactly as Hugging Face ``transformers`` renders them (5.x,
``PreTrainedTokenizerBase.apply_chat_template`` and ``utils/chat_template_utils.py``): the Jinja
environment, the messages as transformers normalizes them, the rendering and its tokens. The rules
are listed in :mod:`bytepair.chat`'s docstring.

:func:`encode_rendered`, :func:`special_tokens_of` and :func:`templates_of` are for the
sub-package's other modules (:mod:`bytepair.chat.breakdown`), not part of ``bytepair.chat``'s API.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
    templates = templates_of(tokenizer)
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
    templates = templates_of(tokenizer)
    if templates is None:
        return []
    if isinstance(templates, dict):
        return sorted(templates)
    return ["default"]


def templates_of(tokenizer: Any) -> str | dict[str, str] | None:
    templates = getattr(tokenizer, "chat_template", None)
    if templates is None:
        config = getattr(tokenizer, "config", None)
        if isinstance(config, Mapping):
            templates = config.get("chat_template")
    if isinstance(templates, (list, tuple)):  # tokenizer_config.json's form of named templates
        templates = {t["name"]: t["template"] for t in templates}
    return templates


def special_tokens_of(tokenizer: Any) -> dict[str, str]:
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


def encode_rendered(tokenizer: Any, text: str) -> list[int]:
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
        special_tokens=special_tokens_of(tokenizer),
        continue_final_message=continue_final_message,
        **template_kwargs,
    )
    return encode_rendered(tokenizer, text) if tokenize else text


__all__ = [
    "SPECIAL_TOKEN_ATTRIBUTES",
    "apply_chat_template",
    "chat_template_names",
    "encode_rendered",
    "get_chat_template",
    "normalize_messages",
    "render_chat_template",
    "special_tokens_map",
    "special_tokens_of",
    "templates_of",
]
