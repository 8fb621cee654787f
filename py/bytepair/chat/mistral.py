"""Mistral NeMo's chat format, counted as PyPI ``mistral-common`` builds it.

Mistral publishes no Jinja template it stands behind; its reference is
``mistral-common`` (1.13.1: ``MistralTokenizer.from_file("tekken_240718.json")
.encode_chat_completion(ChatCompletionRequest(...))``, instruct tokenizer V3
with the Tekken vocabulary). :func:`nemo_breakdown` re-implements what that
does for text conversations, tested against it:

* messages are grouped: neighbours with the same role become one message, their
  texts joined with ``"\\n\\n"``; system messages are taken out and their texts
  (joined with ``"\\n\\n"``) become the *system prompt*; if nothing is left, or
  the first group is not a user message, an empty user message goes first;
* ``<s>``, then per group: a user message is ``[INST]`` + text + ``[/INST]``,
  the *last* user message's text preceded by the system prompt and
  ``"\\n\\n"``, and, with tools, by ``[AVAILABLE_TOOLS]`` + the tools as JSON +
  ``[/AVAILABLE_TOOLS]`` before its ``[INST]``; an assistant message is its text
  with trailing spaces removed + ``</s>``;
* text is encoded with special-token strings as plain text (Tekken).

Refused as mistral-common refuses them (its validator's rules): a
conversation ending with an assistant message, an empty assistant message, a
system message right after an assistant message. Tool calls and tool results (which need
call ids) are not modelled: a ``tool`` message is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentError, MessageError
from .breakdown import ChatBreakdown, build_breakdown, token_char_spans
from .tools import function_of, validate_tools

__all__ = ["MISTRAL_ROLES", "nemo_breakdown", "nemo_tools_json"]

#: Roles :func:`nemo_breakdown` takes.
MISTRAL_ROLES = ("system", "user", "assistant")


def nemo_tools_json(tools: Sequence[Mapping[str, Any]]) -> str:
    """The ``[AVAILABLE_TOOLS]`` payload: mistral-common's ``Tool`` models dumped
    (``{"type": "function", "function": {"name", "description", "parameters"}}``,
    ``description`` default ``""``, ``parameters`` default ``{}``, ``strict``
    left out) as ``json.dumps(..., ensure_ascii=False)``.

    Raises:
        ToolsError: tools of the wrong shape.
    """
    out = []
    for t in validate_tools(tools):
        f = function_of(t)
        out.append(
            {
                "type": "function",
                "function": {
                    "name": f["name"],
                    "description": f.get("description") or "",
                    "parameters": f.get("parameters") or {},
                },
            }
        )
    return json.dumps(out, ensure_ascii=False)


def nemo_breakdown(
    messages: Sequence[Mapping[str, Any]],
    *,
    tokenizer: Any,
    tools: Sequence[Mapping[str, Any]] | None = None,
    units: str = "chars",
) -> ChatBreakdown:
    """A conversation in Mistral NeMo's chat format (see the module docstring), counted.

    Args:
        messages: ``[{"role": "system"|"user"|"assistant", "content": str}]``.
        tokenizer: the NeMo Tekken tokenizer (:func:`bytepair.from_tekken` of
            ``tekken_240718.json``): ``encode_ordinary``, ``special_tokens``.
        tools: tool definitions (:mod:`bytepair.chat.tools`), or ``None``.
        units: ``"chars"`` or ``"utf16"`` for the spans.

    Returns:
        :class:`bytepair.chat.ChatBreakdown` (``format="mistral"``,
        ``template_name="v3"``): ids equal mistral-common's
        ``encode_chat_completion(...).tokens``; a system message's content is
        found in the last user turn; the tools' tokens (``[AVAILABLE_TOOLS]`` ...)
        are ``tools_tokens``.

    Raises:
        MessageError: a role other than system/user/assistant, an empty
            assistant message, a system message right after an assistant one, a
            conversation ending with an assistant message (``message_index``
            names the message).
        ArgumentError: no messages.
        ToolsError: tools of the wrong shape.
    """
    if not messages:
        raise ArgumentError("Add a message: an empty conversation has nothing to count.", field="messages")
    for i, m in enumerate(messages):
        role = m.get("role")
        if role not in MISTRAL_ROLES:
            raise MessageError(
                f"message {i + 1}: Mistral's format is counted here for system, user and assistant messages"
                f" (tool results need call ids), not {role!r}",
                message_index=i,
            )
        if role == "assistant" and not m.get("content"):
            raise MessageError(
                f"message {i + 1}: an assistant message needs text (mistral-common: “Assistant message must have"
                " either content or tool_calls”)",
                message_index=i,
            )
        if role == "system" and i and messages[i - 1].get("role") == "assistant":
            raise MessageError(
                f"message {i + 1}: Mistral's format has no system message right after an assistant message"
                " (mistral-common: “Unexpected role 'system' after role 'assistant'”)",
                message_index=i,
            )
    if messages[-1]["role"] == "assistant":
        raise MessageError(
            f"message {len(messages)}: Mistral's format ends with a user message, the one the model answers"
            " (mistral-common: “Expected last role User or Tool (or Assistant with prefix) for serving but got"
            " assistant”)",
            message_index=len(messages) - 1,
        )
    specials = tokenizer.special_tokens
    # groups of neighbours with the same role: (role, [message indexes])
    groups: list[tuple[str, list[int]]] = []
    for i, m in enumerate(messages):
        if groups and groups[-1][0] == m["role"]:
            groups[-1][1].append(i)
        else:
            groups.append((m["role"], [i]))
    system = [i for i, m in enumerate(messages) if m["role"] == "system"]
    turns = [g for g in groups if g[0] != "system"]
    if not turns or turns[0][0] != "user":
        turns.insert(0, ("user", []))
    last_user = max(k for k, g in enumerate(turns) if g[0] == "user")

    text: list[str] = []
    ids: list[int] = []
    spans: list[tuple[int, int]] = []
    content: list[list[tuple[int, int]]] = [[] for _ in messages]
    tools_spans: list[tuple[int, int]] = []
    ends: dict[int, int] = {}  # message index -> where its region ends
    pos = 0

    def special(name: str) -> None:
        nonlocal pos
        ids.append(specials[name])
        spans.append((pos, pos + len(name)))
        text.append(name)
        pos += len(name)

    def plain(s: str) -> None:
        nonlocal pos
        if not s:
            return
        got = tokenizer.encode_ordinary(s)
        ids.extend(got)
        spans.extend((pos + a, pos + b) for a, b in token_char_spans(tokenizer, s, got))
        text.append(s)
        pos += len(s)

    special("<s>")
    for k, (role, members) in enumerate(turns):
        parts = [messages[i]["content"] for i in members if messages[i]["content"]]
        if role == "assistant":
            body = "\n\n".join(parts).rstrip(" ")
        else:
            body = "\n\n".join(parts)
        pieces: list[tuple[int | None, str]] = []  # (message index or None, text) in order
        if role == "user" and k == last_user:
            if tools:
                start = pos
                special("[AVAILABLE_TOOLS]")
                plain(nemo_tools_json(tools))
                special("[/AVAILABLE_TOOLS]")
                tools_spans.append((start, pos))
            said = [i for i in system if messages[i]["content"]]  # empty texts are left out of the joins
            if said:
                for n, i in enumerate(said):
                    pieces.append((i, messages[i]["content"]))
                    if n < len(said) - 1:
                        pieces.append((None, "\n\n"))
                pieces.append((None, "\n\n"))
        said = [i for i in members if messages[i]["content"]]
        for n, i in enumerate(said):
            pieces.append((i, messages[i]["content"]))
            if n < len(said) - 1:
                pieces.append((None, "\n\n"))
        whole = "".join(p for _, p in pieces)
        if role == "assistant":
            whole = body
        if role == "user":
            special("[INST]")
        start = pos
        plain(whole)
        at = start
        for owner, p in pieces:  # content spans within the encoded text (assistant: before the stripped spaces)
            end = min(at + len(p), start + len(whole))
            if owner is not None:
                content[owner].append((at, max(at, end)))
            at += len(p)
        if role == "user":
            special("[/INST]")
        else:
            special("</s>")
        for i in members:
            ends[i] = pos
    # regions: a message's tokens run to the end of its group; system messages own no region
    regions, prev = [], 0
    for i in range(len(messages)):
        prev = max(prev, ends.get(i, prev))
        regions.append(prev)
    return build_breakdown(
        text="".join(text),
        ids=ids,
        spans=spans,
        roles=[m["role"] for m in messages],
        regions=regions,
        content_spans=content,
        special={specials[n] for n in ("<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]")},
        units=units,
        fmt="mistral",
        template_name="v3",
        tokenizer_name=getattr(tokenizer, "name", None),
        tools_spans=tools_spans,
    )
