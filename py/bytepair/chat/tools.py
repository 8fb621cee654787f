"""Tool (function) definitions in chat prompts: read, checked, and rendered as
OpenAI's models see them.

A chat request may carry tool definitions in OpenAI's shape (what
``transformers``' ``apply_chat_template(..., tools=...)`` and the OpenAI API
take)::

    [{"type": "function",
      "function": {"name": "get_weather", "description": "...",
                   "parameters": {<JSON Schema of the arguments>}}}]

(a bare ``{"name", "description", "parameters"}`` function is accepted too).
How they enter the prompt depends on the format:

* open models: their chat template's ``tools`` variable
  (:func:`bytepair.chat.chat_breakdown`), exactly as transformers;
* gpt-oss (harmony): the developer message's ``# Tools`` section, which
  :func:`tools_section` renders by the rules of PyPI ``openai-harmony`` 0.0.8
  (``src/encoding.rs``: ``json_schema_to_typescript`` and
  ``template_tools_section``; re-implemented, tested against the package):
  a ``namespace functions { ... }`` of TypeScript-like type definitions;
* OpenAI ChatML models: OpenAI does not publish it. bytepair puts the same
  section into the system message (an *estimate*, see
  :func:`bytepair.chat.openai.chatml_breakdown`).

:func:`parse_tools_json` reads the JSON a user types and reports a syntax
error at its line and column (:class:`bytepair.errors.ToolsError`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ToolsError
from ..formats.jsonguard import MAX_NESTING, nesting_depth

__all__ = ["function_of", "json_schema_to_typescript", "parse_tools_json", "tools_section", "validate_tools"]


def parse_tools_json(text: str) -> list[dict[str, Any]] | None:
    """The tool definitions in JSON ``text``, checked (:func:`validate_tools`).

    Args:
        text: a JSON array of tools; blank text means no tools.

    Returns:
        The parsed list, or ``None`` for blank text.

    Raises:
        ToolsError: a JSON syntax error (``line``, ``column``: 1-based
            *characters*; ``pos``: 0-based character offset), nesting deeper
            than :data:`bytepair.formats.jsonguard.MAX_NESTING`, or tools of the wrong
            shape (``tool_index``, ``path``).
    """
    if not isinstance(text, str):
        raise ToolsError(f"tools must be JSON text, got {type(text).__name__}")
    if not text.strip():
        return None
    if nesting_depth(text) > MAX_NESTING:
        raise ToolsError(
            f"the tools JSON nests deeper than {MAX_NESTING} levels", reason="nesting", values={"limit": MAX_NESTING}
        )
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise ToolsError(
            f"tools: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}",
            line=e.lineno,
            column=e.colno,
            pos=e.pos,
            reason="json_syntax",
        ) from e
    return validate_tools(value)


def validate_tools(tools: Any) -> list[dict[str, Any]]:
    """Check tool definitions; returns them unchanged (a new list of the same dicts).

    Each item is ``{"type": "function", "function": {...}}`` or a bare function
    ``{...}``; the function needs a non-empty ``name`` (str), may have a
    ``description`` (str) and ``parameters`` (an object: a JSON Schema).

    Raises:
        ToolsError: not a list, or an item of the wrong shape (``tool_index``,
            ``path`` of the bad value, e.g. ``"[0].function.name"``).
    """
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Sequence):
        raise ToolsError("tools must be a list (a JSON array) of tool definitions", path="", reason="not_list")
    for i, t in enumerate(tools):
        if not isinstance(t, Mapping):
            raise ToolsError(f"tool {i + 1} must be an object", tool_index=i, path=f"[{i}]", reason="not_object")
        where = f"[{i}].function" if "function" in t else f"[{i}]"
        f = function_of(t)
        if not isinstance(f, Mapping):
            raise ToolsError(
                f"tool {i + 1}: function must be an object", tool_index=i, path=where, reason="function_not_object"
            )
        name = f.get("name")
        if not isinstance(name, str) or not name:
            raise ToolsError(
                f"tool {i + 1} needs a name (text)", tool_index=i, path=f"{where}.name", reason="needs_name"
            )
        for key, kind, must_be, reason in _OPTIONAL_FIELDS:
            value = f.get(key)
            if value is not None and not isinstance(value, kind):
                raise ToolsError(
                    f"tool {i + 1} ({name}): {key} must be {must_be}",
                    tool_index=i,
                    path=f"{where}.{key}",
                    reason=reason,
                    values={"name": name},
                )
    return list(tools)


#: A function's optional fields: key, the type its value must have, those words, the error's ``reason``.
_OPTIONAL_FIELDS: tuple[tuple[str, type, str, str], ...] = (
    ("description", str, "text", "description_not_text"),
    ("parameters", Mapping, "an object (a JSON Schema)", "parameters_not_object"),
)


def function_of(tool: Mapping[str, Any]) -> Any:
    """The function part of a tool: ``tool["function"]`` for OpenAI's
    ``{"type": "function", "function": {...}}``, else the tool itself."""
    return tool["function"] if "function" in tool else tool


# --------------------------------------------------------------------------- harmony's TypeScript rendering


def _get(schema: Any, key: str) -> Any:
    return schema.get(key) if isinstance(schema, Mapping) else None


def _json_text(value: Any) -> str:
    """A JSON value as ``serde_json`` displays it (compact)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _is_enum(schema: Any) -> bool:
    e = _get(schema, "enum")
    return isinstance(e, list) and bool(e)


def _default_comment(schema: Any, *, quote_enum_strings: bool) -> str:
    """``default: ...`` for a schema with a ``default``: a string quoted unless
    the schema is an enum (then bare, or JSON-quoted where harmony prints the
    JSON value)."""
    d = schema["default"]
    if isinstance(d, str) and not _is_enum(schema):
        return f'default: "{d}"'
    if isinstance(d, str) and not quote_enum_strings:
        return f"default: {d}"
    return f"default: {_json_text(d)}"


def _nullable(schema: Any, type_str: str) -> str:
    if _get(schema, "nullable") is True and "null" not in type_str:
        return f"{type_str} | null"
    return type_str


def json_schema_to_typescript(schema: Any, indent: str = "") -> str:
    """A JSON Schema as the TypeScript-like type openai-harmony writes for a
    tool's parameters (openai-harmony 0.0.8, ``json_schema_to_typescript``).

    Rules: ``oneOf`` -> variants on lines `` | ...`` (with their description and
    default as a trailing comment); a list ``type`` -> its types joined by
    `` | `` (``integer`` as ``number``); ``object`` -> ``{`` + one line per
    property (comments for ``title``, ``description``, ``examples``;
    ``name?:`` unless ``required``; ``// default: ...`` after it) + ``}``;
    ``string`` (``enum`` -> ``"a" | "b"``), ``number``/``integer`` ->
    ``number``, ``boolean``, ``array`` -> ``T[]`` (``Array<any>`` without
    ``items``); anything else ``any``. Property order is the input's.

    Args:
        schema: the JSON Schema (dicts/lists as ``json.loads`` gives them).
        indent: the indentation of nested lines (harmony adds 4 spaces per
            object level).

    Returns:
        The type text (several lines for objects).
    """
    one_of = _get(schema, "oneOf")
    if isinstance(one_of, list):
        out = []
        for variant in one_of:
            out.append(f"\n{indent} | ")
            out.append(_nullable(variant, json_schema_to_typescript(variant, indent + "   ")))
            comments = []
            if isinstance(_get(variant, "description"), str):
                comments.append(variant["description"])
            if isinstance(variant, Mapping) and "default" in variant:
                comments.append(_default_comment(variant, quote_enum_strings=True))
            if comments:
                out.append(" // " + " ".join(comments))
        return "".join(out)
    ty = _get(schema, "type")
    if isinstance(ty, list):
        names = ["number" if t == "integer" else t for t in ty if isinstance(t, str)]
        if names:
            return " | ".join(names)
    if not isinstance(ty, str):
        return "any"
    if ty == "object":
        return _object_type(schema, indent)
    if ty == "string":
        values = _get(schema, "enum")
        if isinstance(values, list):
            quoted = [f'"{v}"' for v in values if isinstance(v, str)]
            if quoted:
                return " | ".join(quoted)
        return "string"
    if ty in ("number", "integer"):
        return "number"
    if ty == "boolean":
        return "boolean"
    if ty == "array":
        if "items" in schema:
            return json_schema_to_typescript(schema["items"], indent) + "[]"
        return "Array<any>"
    return "any"


def _object_type(schema: Mapping[str, Any], indent: str) -> str:
    out = []
    if isinstance(schema.get("description"), str):
        out.append(f"{indent}// {schema['description']}\n")
    out.append("{\n")
    props = schema.get("properties")
    if isinstance(props, Mapping):
        req = schema.get("required")
        required = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
        for key, val in props.items():
            mark = "" if key in required else "?"
            if isinstance(_get(val, "title"), str):
                out.append(f"{indent}// {val['title']}\n{indent}//\n")
            if _get(val, "oneOf") is None and isinstance(_get(val, "description"), str):
                out.append(f"{indent}// {val['description']}\n")
            examples = _get(val, "examples")
            if isinstance(examples, list) and examples:
                out.append(f"{indent}// Examples:\n")
                out.extend(f'{indent}// - "{ex}"\n' for ex in examples if isinstance(ex, str))
            variants = _get(val, "oneOf")
            if isinstance(variants, list):
                out.append(_one_of_property(key, mark, val, variants, indent))
                continue
            out.append(f"{indent}{key}{mark}: ")
            out.append(_nullable(val, json_schema_to_typescript(val, indent + "    ")))
            out.append(",")
            if _get(val, "oneOf") is None and isinstance(val, Mapping) and "default" in val:
                out.append(" // " + _default_comment(val, quote_enum_strings=False))
            out.append("\n")
    out.append(f"{indent}}}")
    return "".join(out)


def _one_of_property(key: str, mark: str, val: Mapping[str, Any], variants: list, indent: str) -> str:
    out = []
    desc = val.get("description") if isinstance(val.get("description"), str) else None
    skip = desc is not None and bool(variants) and _get(variants[0], "description") == desc
    above = False
    if desc is not None and not skip:
        out.append(f"{indent}// {desc}\n")
        above = True
    if "default" in val:
        out.append(f"{indent}// {_default_comment(val, quote_enum_strings=False)}\n")
    out.append(f"{indent}{key}{mark}:\n")
    for i, variant in enumerate(variants):
        out.append(f"{indent} | ")
        out.append(_nullable(variant, json_schema_to_typescript(variant, indent + "   ")))
        comments = []
        vdesc = _get(variant, "description")
        if not (i == 0 and above) and isinstance(vdesc, str) and vdesc != desc:
            comments.append(vdesc)
        if isinstance(variant, Mapping) and "default" in variant:
            comments.append(_default_comment(variant, quote_enum_strings=False))
        if comments:
            out.append(" // " + " ".join(comments))
        out.append("\n")
    out.append(f"{indent},\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    """Rust's ``str::lines``: split at ``\\n`` (a ``\\r`` before it dropped), no last empty line."""
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [p.removesuffix("\r") for p in parts]


def tools_section(tools: Sequence[Mapping[str, Any]], *, empty_as_no_arguments: bool = False) -> str:
    """The ``# Tools`` section harmony writes for function tools (openai-harmony
    0.0.8 ``template_tools_section`` with the ``functions`` namespace)::

        # Tools

        ## functions

        namespace functions {

        // <description line>
        type <name> = (_: <parameters as json_schema_to_typescript>) => any;

        } // namespace functions

    (``type <name> = () => any;`` for a tool without ``parameters``).

    Args:
        tools: checked tool definitions (:func:`validate_tools`).
        empty_as_no_arguments: write ``() => any`` also for parameters without
            ``properties`` (harmony writes ``(_: {\n}) => any``); the rule
            hmarr's ``openai-chat-tokens`` measured on OpenAI's API, used for
            the ChatML estimate.

    Returns:
        The section text (no leading or trailing newline).

    Raises:
        ToolsError: tools of the wrong shape.
    """
    tools = validate_tools(tools)
    lines = ["## functions\n", "namespace functions {\n"]
    for t in tools:
        f = function_of(t)
        lines.extend(f"// {line}" for line in _lines(f.get("description") or ""))
        params = f.get("parameters")
        if empty_as_no_arguments and params is not None and not params.get("properties"):
            params = None
        if params is not None:
            lines.append(f"type {f['name']} = (_: {json_schema_to_typescript(params, '')}) => any;\n")
        else:
            lines.append(f"type {f['name']} = () => any;\n")
    lines.append("} // namespace functions")
    return "# Tools\n\n" + "\n".join(lines)
