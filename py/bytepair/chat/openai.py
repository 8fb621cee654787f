"""OpenAI chat formats, counted: ChatML for ``cl100k_base`` / ``o200k_base``
chat models, and harmony for gpt-oss (``o200k_harmony``).

OpenAI does not publish the wrapper its chat API puts around messages; people
count with the ChatML layout that ``tiktokenizer`` and ``gpt-tokenizer`` build.
:func:`encode_chatml` follows npm ``gpt-tokenizer`` 4.0.0
(``src/GptEncoding.ts``, ``encodeChatGenerator``; ``src/mapping.ts``,
``chatModelParams``; special-token ids from ``src/encodingParams/*.ts``), which
in turn follows OpenAI's ``chatml.md`` and the cookbook's "How to count tokens
with tiktoken" (section 6):

* every message: ``<|im_start|>`` + name (default: the role; role default
  ``"system"``) + role separator + content + ``<|im_end|>`` + message separator;
* then the reply is primed: ``<|im_start|>`` + ``"assistant"`` + role separator;
* ``style="gpt-4"`` (every chat model whose name does not start with
  ``gpt-3.5``): role separator ``<|im_sep|>`` (a special token), no message
  separator; ``style="gpt-3.5"``: both are ``"\\n"``.
* the ids of ``<|im_start|>``, ``<|im_end|>``, ``<|im_sep|>``: cl100k_base
  100264, 100265, 100266; o200k_base 200003, 200004, 200005 - gpt-tokenizer's
  choice: tiktoken's ``o200k_base`` has no ChatML tokens (only
  ``<|endoftext|>`` 199999 and ``<|endofprompt|>`` 200018), so these ids are a
  counting convention, not the model's.

:func:`encode_harmony` follows PyPI ``openai-harmony`` 0.0.8
(``render_conversation_for_completion`` with its default config), checked
against it in the tests: every message is ``<|start|>`` + header +
``<|message|>`` + content + ``<|end|>`` (``<|call|>`` for an assistant
message addressed to a tool), the header being the author (role, or
``role:name``; a tool message's name alone), `` to=<recipient>``,
``<|channel|><channel>``, and `` <content_type>`` (``"<|constrain|>json"``);
the reply is primed with ``<|start|>assistant``; when the last assistant
message is on the ``final`` channel, ``analysis`` messages before the first
``final`` one are dropped (harmony's ``auto_drop_analysis``). Messages are
plain text: harmony's structured system/developer contents
(``SystemContent``: model identity, reasoning effort, knowledge cutoff)
are not generated here - pass the text they render to if you want it counted;
function tools (``tools=``) are rendered into the developer message as
openai-harmony does (:mod:`bytepair.chat.tools`).
The harmony special tokens and ids (``o200k_harmony``) are those of
openai-harmony and of gpt-oss's ``tokenizer.json`` (which disagree on id
200018: ``<|endofprompt|>`` in tokenizer.json, tiktoken and gpt-tokenizer,
``<|reserved_200018|>`` in openai-harmony; bytepair follows the former).

>>> from bytepair.chat.openai import encode_chatml, encode_harmony
>>> encode_chatml([{"role": "user", "content": "Hi"}])   # gpt-4 layout, cl100k_base
[100264, 882, 100266, 13347, 100265, 100264, 78191, 100266]
>>> encode_harmony([{"role": "user", "content": "Hi"}])  # <|start|>user<|message|>Hi<|end|><|start|>assistant
[200006, 1428, 200008, 12194, 200007, 200006, 173781]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentError, MessageError
from .breakdown import ChatBreakdown, build_breakdown, token_char_spans
from .tools import tools_section

#: ChatML special tokens per encoding (gpt-tokenizer 4.0.0, src/encodingParams/).
CHATML_SPECIAL_TOKENS: dict[str, dict[str, int]] = {
    "cl100k_base": {"<|im_start|>": 100264, "<|im_end|>": 100265, "<|im_sep|>": 100266},
    "o200k_base": {"<|im_start|>": 200003, "<|im_end|>": 200004, "<|im_sep|>": 200005},
}

#: The named special tokens of ``o200k_harmony`` (gpt-oss): openai-harmony 0.0.8,
#: gpt-oss's tokenizer.json. Ids 200013-201087 are ``<|reserved_N|>`` except 200018.
HARMONY_SPECIAL_TOKENS: dict[str, int] = {
    "<|startoftext|>": 199998,
    "<|endoftext|>": 199999,
    "<|return|>": 200002,
    "<|constrain|>": 200003,
    "<|channel|>": 200005,
    "<|start|>": 200006,
    "<|end|>": 200007,
    "<|message|>": 200008,
    "<|call|>": 200012,
    "<|endofprompt|>": 200018,
}
_HARMONY_RESERVED = (200000, 200001, 200004, 200009, 200010, 200011, *range(200013, 200018), *range(200019, 201088))

CHATML_STYLES = ("gpt-4", "gpt-3.5")


def chatml_style(model: str) -> str:
    """``"gpt-3.5"`` for model names starting with ``gpt-3.5``, else ``"gpt-4"``
    (gpt-tokenizer's ``chatModelParams`` rule)."""
    return "gpt-3.5" if model.startswith("gpt-3.5") else "gpt-4"


_harmony_cache: list = []


def harmony_encoding():
    """``o200k_base`` with the ``o200k_harmony`` special tokens registered (a
    :class:`bytepair.Tokenizer`, shared: use ``.copy()`` to change it)."""
    if not _harmony_cache:
        from ..registry import get_encoding

        enc = get_encoding("o200k_base").copy()
        specials = dict(HARMONY_SPECIAL_TOKENS)
        specials.update({f"<|reserved_{i}|>": i for i in _HARMONY_RESERVED})
        enc.register_special_tokens({k: v for k, v in specials.items() if enc.special_tokens.get(k) != v})
        enc.name = "o200k_harmony"
        _harmony_cache.append(enc)
    return _harmony_cache[0]


def _check_messages(messages: Sequence[Mapping[str, Any]]) -> None:
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise ArgumentError("messages must be a list of {'role': ..., 'content': ...} dicts", field="messages")
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping):
            raise ArgumentError(f"message {i + 1} must be a dict, not {type(m).__name__}", field="messages")
        if not isinstance(m.get("content"), str):
            raise ArgumentError(
                f"message {i + 1}: content must be a string (Content must be defined for all messages)",
                field="messages",
            )


class _Builder:
    """Pieces of text with their ids, concatenated; tracks message regions and content spans."""

    def __init__(self, enc) -> None:
        self.enc = enc
        self.text: list[str] = []
        self.ids: list[int] = []
        self.spans: list[tuple[int, int]] = []
        self.pos = 0
        self.regions: list[int] = []
        self.content: list[list[tuple[int, int]]] = []
        self.tools: list[tuple[int, int]] = []

    def special(self, token: str, id_: int) -> None:
        self.text.append(token)
        self.ids.append(id_)
        self.spans.append((self.pos, self.pos + len(token)))
        self.pos += len(token)

    def plain(self, s: str, *, content: bool = False, allowed: Any = frozenset()) -> None:
        if not s:
            if content:
                self.content[-1].append((self.pos, self.pos))
            return
        ids = self.enc.encode(s, allowed_special=allowed, disallowed_special=())
        for a, b in token_char_spans(self.enc, s, ids):
            self.spans.append((self.pos + a, self.pos + b))
        if content:
            self.content[-1].append((self.pos, self.pos + len(s)))
        self.text.append(s)
        self.ids.extend(ids)
        self.pos += len(s)

    def content_and_tools(self, content: str, section: str) -> None:
        """A message's ``content`` followed by ``"\n\n"`` and the tools ``section``,
        encoded as one text (as harmony encodes a developer message's sections);
        an empty ``content`` gives the section alone."""
        if not content:
            start = self.pos
            self.plain(section)
            self.content[-1].append((start, start))
            self.tools.append((start, self.pos))
            return
        start = self.pos
        self.plain(content + "\n\n" + section)
        self.content[-1].append((start, start + len(content)))
        self.tools.append((start + len(content), self.pos))

    def start_message(self) -> None:
        self.content.append([])

    def end_message(self) -> None:
        self.regions.append(self.pos)

    def breakdown(
        self, roles: list[str], special: set[int], units: str, fmt: str, template: str, *, estimate: bool = False
    ) -> ChatBreakdown:
        return build_breakdown(
            text="".join(self.text),
            ids=self.ids,
            spans=self.spans,
            roles=roles,
            regions=self.regions,
            content_spans=self.content,
            special=special,
            units=units,
            fmt=fmt,
            template_name=template,
            tokenizer_name=self.enc.name,
            tools_spans=self.tools,
            estimate=estimate,
        )


def _chatml(messages, encoding: str, style: str, prime: str, tools=None) -> tuple[_Builder, list[str]]:
    from ..registry import get_encoding

    if encoding not in CHATML_SPECIAL_TOKENS:
        raise ArgumentError(
            f"ChatML counting is defined for {sorted(CHATML_SPECIAL_TOKENS)}, not {encoding!r}", field="encoding"
        )
    if style not in CHATML_STYLES:
        raise ArgumentError(f"style must be one of {CHATML_STYLES}, not {style!r}", field="style")
    _check_messages(messages)
    enc = get_encoding(encoding)
    st = CHATML_SPECIAL_TOKENS[encoding]
    forbidden = set(enc.special_tokens) | set(st)
    for i, m in enumerate(messages):
        for key in ("content", "name", "role"):
            value = m.get(key)
            if isinstance(value, str):
                found = next((t for t in forbidden if t in value), None)
                if found:
                    raise MessageError(
                        f"message {i + 1} contains the special token {found}: ChatML refuses a special token's"
                        f" text inside a message, as gpt-tokenizer's encodeChat does (“Disallowed special token"
                        f" found: {found}”); change it (a space inside is enough) to count the conversation.",
                        message_index=i,
                    )
    b = _Builder(enc)

    def role_sep():
        if style == "gpt-4":
            b.special("<|im_sep|>", st["<|im_sep|>"])
        else:
            b.plain("\n")

    section = tools_section(tools, empty_as_no_arguments=True) if tools else None
    into = next((i for i, m in enumerate(messages) if (m.get("role") or "system") == "system"), None)
    if section is not None and into is None:  # a system message of its own, before the first
        start = b.pos
        b.special("<|im_start|>", st["<|im_start|>"])
        b.plain("system")
        role_sep()
        b.plain(section)
        b.special("<|im_end|>", st["<|im_end|>"])
        if style == "gpt-3.5":
            b.plain("\n")
        b.tools.append((start, b.pos))
    roles = []
    for i, m in enumerate(messages):
        role = m.get("role") or "system"
        name = m.get("name") or role
        roles.append(role)
        b.start_message()
        b.special("<|im_start|>", st["<|im_start|>"])
        b.plain(name)
        role_sep()
        if section is not None and i == into:
            b.content_and_tools(m["content"], section)
        else:
            b.plain(m["content"], content=True)
        b.special("<|im_end|>", st["<|im_end|>"])
        if style == "gpt-3.5":
            b.plain("\n")
        b.end_message()
    if prime:
        b.special("<|im_start|>", st["<|im_start|>"])
        b.plain(prime)
    role_sep()  # gpt-tokenizer writes the role separator even without a prime
    return b, roles


def encode_chatml(
    messages: Sequence[Mapping[str, Any]],
    *,
    encoding: str = "cl100k_base",
    style: str = "gpt-4",
    prime: str = "assistant",
    tools: Sequence[Mapping[str, Any]] | None = None,
) -> list[int]:
    """Token ids of a conversation in the ChatML layout, as gpt-tokenizer's ``encodeChat``
    (with ``tools``: an estimate, see :func:`chatml_breakdown`).

    Args:
        messages: dicts with ``content`` (str), ``role`` (default ``"system"``)
            and optionally ``name`` (written instead of the role).
        encoding: ``"cl100k_base"`` (gpt-3.5, gpt-4) or ``"o200k_base"`` (gpt-4o, o-series, gpt-4.1, gpt-5).
        style: ``"gpt-4"`` or ``"gpt-3.5"`` (:func:`chatml_style` of a model name).
        prime: the role the reply is primed with; ``""`` for none.
        tools: tool definitions (:mod:`bytepair.chat.tools`), or ``None``.

    Returns:
        Token ids (``<|im_start|>`` etc. with the ids of :data:`CHATML_SPECIAL_TOKENS`).

    Raises:
        ArgumentError: unknown encoding or style; a message without string
            content; a special token's text inside a message (gpt-tokenizer
            refuses it too). ToolsError: tools of the wrong shape.
    """
    return _chatml(messages, encoding, style, prime, tools)[0].ids


def chatml_breakdown(
    messages: Sequence[Mapping[str, Any]],
    *,
    encoding: str = "cl100k_base",
    style: str = "gpt-4",
    prime: str = "assistant",
    units: str = "chars",
    tools: Sequence[Mapping[str, Any]] | None = None,
) -> ChatBreakdown:
    """:func:`encode_chatml` with the text and the per-message counts
    (:class:`bytepair.chat.ChatBreakdown`, ``format="chatml"``,
    ``template_name`` the style, ``tokenizer_name`` the encoding): the content
    tokens are exactly the content's own encoding (the layout encodes each piece
    separately), the rest of a message is overhead, the prime is trailing.

    Tools: OpenAI does not publish how its API renders tool definitions for
    these models, so the count is an **estimate** (``estimate=True``). The
    layout: harmony's ``# Tools`` section (:func:`bytepair.chat.tools.tools_section`,
    OpenAI's published rendering for gpt-oss: TypeScript types in
    ``namespace functions``) appended to the first system message after
    ``"\n\n"``, or as a system message of its own before the first message;
    parameters without properties written ``() => any``.
    This is the layout hmarr's ``openai-chat-tokens`` (npm; also used by
    litellm's counter) infers from the API, whose count formula (functions'
    TypeScript + 9, - 4 with a system message) matches the API's measured
    ``prompt_tokens`` for gpt-3.5-turbo in that project's tests; bytepair's
    count is 1 token above those measurements on each of them, 2 where the
    parameters nest objects (``tests/core/test_chat_tools.py``)."""
    b, roles = _chatml(messages, encoding, style, prime, tools)
    return b.breakdown(
        roles, set(CHATML_SPECIAL_TOKENS[encoding].values()), units, "chatml", style, estimate=bool(tools)
    )


def _harmony(messages, prime: str, drop_analysis: bool, tools=None) -> tuple[_Builder, list[str], list[int]]:
    _check_messages(messages)
    section = tools_section(tools) if tools else None
    developer = next((i for i, m in enumerate(messages) if m.get("role") == "developer"), None)
    # without a developer message, one holding the tools goes after the leading system messages
    insert_at = None
    if section is not None and developer is None:
        insert_at = next((i for i, m in enumerate(messages) if (m.get("role") or "user") != "system"), len(messages))
    enc = harmony_encoding()
    last_assistant = next((m for m in reversed(messages) if m.get("role") == "assistant"), None)
    drop = drop_analysis and last_assistant is not None and last_assistant.get("channel") == "final"
    first_final = next((i for i, m in enumerate(messages) if m.get("channel") == "final"), None)
    b = _Builder(enc)
    roles, kept = [], []

    def tools_message():
        start = b.pos
        b.special("<|start|>", HARMONY_SPECIAL_TOKENS["<|start|>"])
        b.plain("developer")
        b.special("<|message|>", HARMONY_SPECIAL_TOKENS["<|message|>"])
        b.plain(section)
        b.special("<|end|>", HARMONY_SPECIAL_TOKENS["<|end|>"])
        b.tools.append((start, b.pos))

    for i, m in enumerate(messages):
        if i == insert_at:
            tools_message()
        if drop and first_final is not None and i < first_final and m.get("channel") == "analysis":
            continue
        role = m.get("role") or "user"
        name = m.get("name")
        author = name if role == "tool" and name else (f"{role}:{name}" if name else role)
        roles.append(role)
        kept.append(i)
        b.start_message()
        b.special("<|start|>", HARMONY_SPECIAL_TOKENS["<|start|>"])
        b.plain(author)
        if m.get("recipient"):
            b.plain(f" to={m['recipient']}")
        if m.get("channel"):
            b.special("<|channel|>", HARMONY_SPECIAL_TOKENS["<|channel|>"])
            b.plain(m["channel"])
        if m.get("content_type"):
            b.plain(f" {m['content_type']}", allowed="all")
        b.special("<|message|>", HARMONY_SPECIAL_TOKENS["<|message|>"])
        if section is not None and i == developer:
            b.content_and_tools(m["content"], section)
        else:
            b.plain(m["content"], content=True)
        end = "<|call|>" if role == "assistant" and m.get("recipient") else "<|end|>"
        b.special(end, HARMONY_SPECIAL_TOKENS[end])
        b.end_message()
    if insert_at == len(messages):
        tools_message()
    if prime:
        b.special("<|start|>", HARMONY_SPECIAL_TOKENS["<|start|>"])
        b.plain(prime)
    return b, roles, kept


def encode_harmony(
    messages: Sequence[Mapping[str, Any]],
    *,
    prime: str = "assistant",
    drop_analysis: bool = True,
    tools: Sequence[Mapping[str, Any]] | None = None,
) -> list[int]:
    """Token ids of a conversation in gpt-oss's harmony format (see the module docstring).

    Args:
        messages: dicts with ``role`` (``system``, ``developer``, ``user``,
            ``assistant``, ``tool``), ``content`` (str), optional ``name``,
            ``channel`` (``analysis``/``commentary``/``final``), ``recipient``
            (``functions.get_weather``), ``content_type`` (``"<|constrain|>json"``).
        prime: the role the completion is primed with (``<|start|>assistant``); ``""`` for none.
        drop_analysis: harmony's ``auto_drop_analysis``.
        tools: function tools (:mod:`bytepair.chat.tools`): their ``# Tools``
            section (:func:`bytepair.chat.tools.tools_section`) goes into the
            developer message, as openai-harmony's
            ``DeveloperContent.with_function_tools``: after the first developer
            message's text and ``"\n\n"`` (that text standing for the rendered
            ``# Instructions`` section), or, without one, in a developer message
            of its own after the leading system messages.

    Returns:
        Token ids (``o200k_harmony``), equal to openai-harmony's
        ``render_conversation_for_completion(conversation, Role.ASSISTANT)``.

    Raises:
        ArgumentError: a message without string content. ToolsError: tools of the wrong shape.
    """
    return _harmony(messages, prime, drop_analysis, tools)[0].ids


def harmony_breakdown(
    messages: Sequence[Mapping[str, Any]],
    *,
    prime: str = "assistant",
    drop_analysis: bool = True,
    units: str = "chars",
    tools: Sequence[Mapping[str, Any]] | None = None,
) -> ChatBreakdown:
    """:func:`encode_harmony` with the text and per-message counts
    (``format="harmony"``). Messages harmony drops are not in ``messages`` of
    the result; each :class:`~bytepair.chat.MessageCount`'s ``index`` is the
    index in the input."""
    b, roles, kept = _harmony(messages, prime, drop_analysis, tools)
    br = b.breakdown(roles, set(HARMONY_SPECIAL_TOKENS.values()), units, "harmony", "gpt-oss")
    from dataclasses import replace

    msgs = [replace(m, index=kept[m.index]) for m in br.messages]
    toks = [replace(t, message=None if t.message is None else kept[t.message]) for t in br.tokens]
    return replace(br, messages=msgs, tokens=toks)


__all__ = [
    "CHATML_SPECIAL_TOKENS",
    "CHATML_STYLES",
    "HARMONY_SPECIAL_TOKENS",
    "chatml_breakdown",
    "chatml_style",
    "encode_chatml",
    "encode_harmony",
    "harmony_breakdown",
    "harmony_encoding",
]
