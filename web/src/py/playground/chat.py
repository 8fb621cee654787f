"""The Chat view: a conversation counted in a chat format (``bytepair.app.chat_formats``)."""

from __future__ import annotations

import json

from bytepair import charnames
from bytepair.app import chat_formats
from bytepair.chat import tools as chat_tools

from .convert import dumps, exposed
from .state import get_tokenizer


@exposed
def chat_requirements(format_id: str) -> str:
    """JSON ``{"tokenizer", "jinja"}`` of ``bytepair.app.chat_formats.requirements``: what the worker
    loads before :func:`chat_breakdown` (a rank file; the jinja2 and MarkupSafe wheels)."""
    return dumps(chat_formats.requirements(format_id))


@exposed
def chat_tools_check(tools_json: str) -> str:
    """JSON ``{"count": n}`` for the tools box's text (``0`` when blank); a bad text raises
    ``bytepair.errors.ToolsError`` (line/column of a JSON syntax error, ``tool_index``/``path``
    of a bad tool) - ``bytepair.chat.tools.parse_tools_json``."""
    tools = chat_tools.parse_tools_json(tools_json)
    return dumps({"count": len(tools or [])})


@exposed
def chat_breakdown(format_id: str, messages_json: str, add_generation_prompt: bool = True, tools_json: str = "") -> str:
    """JSON of ``bytepair.app.chat_formats.breakdown(...).to_dict()`` with UTF-16 spans
    (``{text, ids, total, tokens, messages, trailing_tokens, overhead_tokens, tools_tokens,
    tools_spans, estimate, format, template_name, tokenizer_name, ...}``); token display strings
    as ``display``; plus ``marks``: ``bytepair.charnames.invisible_marks`` of the rendered ``text``
    (UTF-16), the invisible characters the token list and detail line name (as ``encode_spans``
    gives Tokenize). ``tools_json``: the tools box's text (``bytepair.chat.tools.parse_tools_json``;
    blank: no tools)."""
    b = chat_formats.breakdown(
        format_id,
        json.loads(messages_json),
        add_generation_prompt=bool(add_generation_prompt),
        units="utf16",
        get_tokenizer=get_tokenizer,
        tools=chat_tools.parse_tools_json(tools_json or ""),
    )
    out = b.to_dict()
    out["marks"] = charnames.invisible_marks(
        out["text"], units="utf16", token_starts=[t["start"] for t in out["tokens"]]
    )
    return dumps(out)
