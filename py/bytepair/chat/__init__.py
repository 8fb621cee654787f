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

The rendering is :mod:`bytepair.chat.template`, the breakdown :mod:`bytepair.chat.breakdown`; this
module gives their public names. The sub-package's other modules build on them:
:mod:`bytepair.chat.openai` (ChatML, harmony), :mod:`bytepair.chat.mistral` (Mistral NeMo),
:mod:`bytepair.chat.tools` (tool definitions); this module imports none of those.
"""

from __future__ import annotations

from .breakdown import ChatBreakdown, ChatToken, MessageCount, build_breakdown, chat_breakdown, token_char_spans
from .template import (
    SPECIAL_TOKEN_ATTRIBUTES,
    apply_chat_template,
    chat_template_names,
    get_chat_template,
    normalize_messages,
    render_chat_template,
    special_tokens_map,
)

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
