"""The pipeline components of a Hugging Face ``tokenizer.json``, in pure Python.

Each component of the file (normalizer, pre-tokenizer, post-processor,
decoder) is read into a small object with the semantics of the Rust
``tokenizers`` library (huggingface/tokenizers, ``tokenizers/src/normalizers``,
``pre_tokenizers``, ``processors``, ``decoders``): the code here is written
from reading that source, not copied. Anything not listed in
:data:`SUPPORTED` raises :class:`bytepair.errors.TokenizerFileError` naming the
component and its JSON path, so a file is never encoded with wrong ids.

Text travels as *pieces*: ``(text, align)`` where ``text`` is a ``str`` and
``align`` is ``None`` (fast path, no offsets wanted) or a list with one
``(start, end)`` per character of ``text``: the span of the caller's original
text (in characters) that character came from.

The normalizer, pre-tokenizer and decoder are stage objects (:class:`Normalizer`,
:class:`PreTokenizer`, :class:`Decoder`): called like functions, and asked what the rest of the
package needs to know about them (``one_to_one``, ``unicode_form``, ``leading_isolated_splits()``,
``uses(kind)`` ...), so what each JSON component means is known here only.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from ..decoding import bytes_to_unicode
from ..errors import TokenizerFileError
from ..normalize import UnicodeForm
from ..split.pretokenize import compile_pattern

__all__ = [
    "BYTE_LEVEL_PATTERN",
    "SUPPORTED",
    "Decoder",
    "Normalizer",
    "PreTokenizer",
    "build_decoder",
    "build_normalizer",
    "build_post_processor",
    "build_pre_tokenizer",
    "byte_level_map",
]

#: What bytepair reads, by component kind (the ``type`` values of the JSON).
SUPPORTED = {
    "model": ["BPE"],
    "normalizer": [
        "NFC",
        "NFD",
        "NFKC",
        "NFKD",
        "Lowercase",
        "Strip",
        "StripAccents",
        "Replace",
        "Prepend",
        "Sequence",
    ],
    "pre_tokenizer": [
        "Split",
        "ByteLevel",
        "Metaspace",
        "Digits",
        "Punctuation",
        "Whitespace",
        "WhitespaceSplit",
        "Sequence",
    ],
    "post_processor": ["TemplateProcessing", "ByteLevel", "BertProcessing", "RobertaProcessing", "Sequence"],
    "decoder": ["ByteLevel", "Metaspace", "ByteFallback", "Fuse", "Strip", "Replace", "Sequence"],
}

Align = "list[tuple[int, int]] | None"

#: Rust's char::is_whitespace: the Unicode White_Space property.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_WS_CLASS = "".join(sorted(WHITE_SPACE)).replace("\x0b", "\\x0b").replace("\x0c", "\\x0c")
_LSTRIP_RE = re.compile("^[" + re.escape("".join(sorted(WHITE_SPACE))) + "]+")
_RSTRIP_RE = re.compile("[" + re.escape("".join(sorted(WHITE_SPACE))) + "]+$")

# GPT-2's byte-to-unicode table as a str.translate table over latin-1 decoded bytes.
_B2U = bytes_to_unicode()
_BYTE_LEVEL_TABLE = {i: _B2U[i] for i in range(256)}


def byte_level_map(s: str) -> str:
    """``s`` -> its UTF-8 *bytes*, each spelled as one GPT-2 byte character."""
    return s.encode("utf-8", "surrogatepass").decode("latin-1").translate(_BYTE_LEVEL_TABLE)


def _err(msg: str, where: str, component: str | None) -> TokenizerFileError:
    return TokenizerFileError(msg, where=where, component=component)


def _type_of(spec: Any, where: str, kind: str) -> str:
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        raise _err(f'{kind} at {where} must be an object with a "type"', where, None)
    t = spec["type"]
    if t not in SUPPORTED[kind]:
        raise _err(
            f"unsupported {kind} {t!r} at {where}: bytepair reads the {kind}s {', '.join(SUPPORTED[kind])}",
            where,
            t,
        )
    return t


def split_pattern_of(spec: Any, where: str, component: str) -> tuple[str, bool]:
    """A ``Split``/``Replace`` pattern spec, ``{"String": s}`` or ``{"Regex": r}``, as ``(source,
    is_regex)`` (a regex in `regex` syntax, or the literal string).

    ``where``/``component``: the spec's place in the file and its component type, for the error.

    Raises:
        TokenizerFileError: any other shape (``where``: ``where + ".pattern"``).
    """
    if isinstance(spec, dict) and len(spec) == 1:
        ((k, v),) = spec.items()
        if k == "String" and isinstance(v, str):
            return v, False
        if k == "Regex" and isinstance(v, str):
            return v, True
    raise _err(
        f'{component} at {where}: pattern must be {{"String": ...}} or {{"Regex": ...}}, got {spec!r}',
        where + ".pattern",
        component,
    )


def _finditer_fn(pat: str, is_regex: bool, where: str, component: str) -> Callable[[str], list[tuple[int, int]]]:
    """-> function giving the (start, end) character spans of the matches, left to right."""
    if not is_regex:
        if pat == "":
            return lambda s: []
        n = len(pat)

        def find_str(s: str) -> list[tuple[int, int]]:
            out = []
            i = s.find(pat)
            while i >= 0:
                out.append((i, i + n))
                i = s.find(pat, i + n)
            return out

        return find_str
    compiled = _compiled(pat, where, component)
    return lambda s: [m.span() for m in compiled.finditer(s)]


def _compiled(pat: str, where: str, component: str) -> Any:
    """A component's regex compiled (:func:`bytepair.split.pretokenize.compile_pattern`).

    Raises:
        TokenizerFileError: it does not compile (``where``: ``where + ".pattern"``).
    """
    try:
        return compile_pattern(pat)
    except ValueError as e:
        raise _err(
            f"{component} at {where}: the regex does not compile here: {e}", where + ".pattern", component
        ) from e


def _unknown_keys(spec: dict, allowed: set[str], where: str, component: str) -> None:
    extra = set(spec) - allowed - {"type"}
    if extra:
        k = min(extra)
        raise _err(f"{component} at {where}: unsupported option {k!r}", f"{where}.{k}", component)


# ---------------------------------------------------------------- stage objects
#: A leading Isolated split's finder (:meth:`PreTokenizer.leading_isolated_splits`): a compiled
#: pattern's ``finditer(text)`` (match objects, offsets in characters), or the literal string.
Finder = Callable[[str], Iterable[Any]] | str


class Stage:
    """One pipeline component of a ``tokenizer.json``, built by its ``build_*`` function.

    Attributes:
        run: the stage as a plain function (what calling the stage runs; hot loops may take it once).
        kind: the component's JSON ``type`` (``"NFC"``, ``"Split"``, ``"Sequence"`` ...).
        kinds: ``kind`` and the kinds of every member, at any depth (a ``Sequence``'s parts).
    """

    __slots__ = ("kind", "kinds", "run")

    def __init__(self, run: Callable[..., Any], kind: str, members: Iterable[Stage] = ()) -> None:
        self.run: Callable[..., Any] = run
        self.kind: str = kind
        self.kinds: frozenset[str] = frozenset({kind}).union(*(m.kinds for m in members))

    def uses(self, kind: str) -> bool:
        """Whether the stage is, or holds at any depth, a component of JSON type ``kind``."""
        return kind in self.kinds

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.kind}>"


class Normalizer(Stage):
    """The normalize stage: ``normalizer(text, align) -> (text, align)`` (``align``: one
    ``(start, end)`` of the caller's text per character, or None), and what it does to offsets.

    Attributes:
        unicode_form: ``"NFC"``, ``"NFD"``, ``"NFKC"`` or ``"NFKD"`` when the stage is that Unicode
            normal form alone (it then leaves text before an ASCII character alone), else None.
        one_to_one: whether it maps each character to one character on its own (``Replace`` of one
            plain character by one, or a ``Sequence`` of those: Gemma 3's space -> ``"▁"``), so
            offsets in normalized text are those of the raw text.
        replaces_space: whether it spells spaces as ``"▁"`` (a ``Replace`` whose content is
            ``"▁"``, alone or in a ``Sequence``: Gemma, Llama 2 style).
    """

    __slots__ = ("one_to_one", "replaces_space", "unicode_form")

    def __init__(
        self,
        run: Callable[[str, Any], tuple[str, Any]],
        kind: str,
        *,
        members: Sequence[Normalizer] = (),
        unicode_form: str | None = None,
        one_to_one: bool = False,
        replaces_space: bool = False,
    ) -> None:
        super().__init__(run, kind, members)
        self.unicode_form: str | None = unicode_form
        self.one_to_one: bool = one_to_one
        self.replaces_space: bool = replaces_space

    def __call__(self, text: str, align: Any) -> tuple[str, Any]:
        return self.run(text, align)


class PreTokenizer(Stage):
    """The pre-tokenize stage: ``pre_tokenizer(pieces) -> pieces`` over ``(text, align, first)``
    triples (each piece maps on its own: ``step(pieces)`` is the concatenation of ``step([p])``).

    Attributes:
        info: the stage as :meth:`bytepair.hf.tokenizer.HFTokenizer.describe` shows it (type,
            split patterns, options), a dict.
        steps: a ``Sequence``'s members in order, else ``(self,)``.
        isolated_finder: for a ``Split`` with ``Isolated`` behaviour, not inverted, on a regex or a
            non-empty string: its :data:`Finder`; else None.
        asks_first: whether a step asks if a piece starts at the text's start (``Metaspace`` with
            ``prepend_scheme: "first"``, at any depth): behind a normalizer only offsets tell.
    """

    __slots__ = ("asks_first", "info", "isolated_finder", "steps")

    def __init__(
        self,
        run: Callable[[list], list],
        kind: str,
        info: dict[str, Any],
        *,
        members: Sequence[PreTokenizer] | None = None,
        isolated_finder: Finder | None = None,
        asks_first: bool = False,
    ) -> None:
        super().__init__(run, kind, members or ())
        self.info: dict[str, Any] = info
        self.steps: tuple[PreTokenizer, ...] = tuple(members) if members is not None else (self,)
        self.isolated_finder: Finder | None = isolated_finder
        self.asks_first: bool = asks_first or any(m.asks_first for m in members or ())

    def __call__(self, pieces: list) -> list:
        return self.run(pieces)

    def leading_isolated_splits(self) -> tuple[list[Finder], Callable[[list], list] | None] | None:
        """The stage as ``(finders, rest)`` when its first steps are ``Split``\\ s that keep both
        matches and gaps (``Isolated``, not inverted; Llama 3, Qwen 3, gpt-oss: one; DeepSeek V3:
        three): a piece's parts after them are the non-empty gaps and matches of each finder in
        turn (each over the previous one's parts), so a caller may walk them lazily. ``finders``:
        one :data:`Finder` per leading split; ``rest``: the other steps as one
        ``step(pieces) -> pieces``, or None when there are none. None when the first step is no
        such split."""
        finders: list[Finder] = []
        for st in self.steps:
            if st.isolated_finder is None:
                break
            finders.append(st.isolated_finder)
        if not finders:
            return None
        rest = self.steps[len(finders) :]
        if not rest:
            return finders, None
        return finders, rest[0].run if len(rest) == 1 else _run_in_turn([s.run for s in rest])


class Decoder(Stage):
    """The decode stage: ``decoder(tokens) -> tokens`` (``tokenizers``' ``decode_chain``: token
    strings in, strings out, joined by the caller)."""

    __slots__ = ()

    def __call__(self, tokens: list[str]) -> list[str]:
        return self.run(tokens)


def _run_in_turn(runs: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """One function running ``runs`` in order, each on the previous one's result."""

    def seq(x):
        for r in runs:
            x = r(x)
        return x

    return seq


# ----------------------------------------------------------------- normalizers
def _map_chars(text: str, align, fn: Callable[[str], str]):
    """Apply a per-character transform, keeping alignment (each output char of an input char maps to it)."""
    if align is None:
        return "".join(map(fn, text)), None
    out, al = [], []
    for ch, a in zip(text, align):
        t = fn(ch)
        out.append(t)
        al.extend([a] * len(t))
    return "".join(out), al


def _unicode_norm(form: UnicodeForm):
    def run(text: str, align):
        if align is None or text.isascii():
            return unicodedata.normalize(form, text), align
        # Cut before each starter (combining class 0); normalize chunks, join
        # neighbours whose joint form differs (composition across starters).
        cuts = [i for i, ch in enumerate(text) if i == 0 or unicodedata.combining(ch) == 0]
        cuts.append(len(text))
        chunks: list[list] = []
        for a, b in itertools.pairwise(cuts):
            t = unicodedata.normalize(form, text[a:b])
            if chunks:
                pa, _, pt = chunks[-1]
                joined = unicodedata.normalize(form, text[pa:b])
                if joined != pt + t:
                    chunks[-1] = [pa, b, joined]
                    continue
            chunks.append([a, b, t])
        out, al = [], []
        for a, b, t in chunks:
            out.append(t)
            if t == text[a:b]:  # unchanged: each character keeps its own offsets
                al.extend(align[a:b])
            else:
                span = (align[a][0], align[b - 1][1])
                al.extend([span] * len(t))
        return "".join(out), al

    return run


def _lowercase(text: str, align):
    # tokenizers lowercases char by char (Rust char::to_lowercase): no final-sigma rule.
    if text.isascii():
        return text.lower(), align
    return _map_chars(text, align, str.lower)


def _strip_accents(text: str, align):
    # tokenizers' is_combining_mark: general category Mn.
    keep = [i for i, ch in enumerate(text) if unicodedata.category(ch) != "Mn"]
    return "".join(text[i] for i in keep), (None if align is None else [align[i] for i in keep])


def _replace_fn(find: Callable[[str], list[tuple[int, int]]], content: str):
    def run(text: str, align):
        spans = find(text)
        if not spans:
            return text, align
        out: list[str] = []
        al: list[tuple[int, int]] | None = [] if align is not None else None
        pos = 0
        for a, b in spans:
            out.append(text[pos:a])
            out.append(content)
            if al is not None:
                al.extend(align[pos:a])
                if a < b:
                    span = (align[a][0], align[b - 1][1])
                else:
                    span = (align[a][0], align[a][0]) if a < len(align) else (align[-1][1], align[-1][1])
                al.extend([span] * len(content))
            pos = b
        out.append(text[pos:])
        if al is not None:
            al.extend(align[pos:])
        return "".join(out), al

    return run


def _prepend_fn(prefix: str):
    def run(text: str, align):
        if not text:
            return text, align
        if align is None:
            return prefix + text, None
        return prefix + text, [align[0]] * len(prefix) + align

    return run


def _strip_fn(left: bool, right: bool):
    def run(text: str, align):
        a, b = 0, len(text)
        if left:
            m = _LSTRIP_RE.search(text)
            if m:
                a = m.end()
        if right and b > a:
            m = _RSTRIP_RE.search(text, a)
            if m:
                b = m.start()
        if a == 0 and b == len(text):
            return text, align
        return text[a:b], (None if align is None else align[a:b])

    return run


def build_normalizer(spec: Any, where: str = "normalizer") -> Normalizer | None:
    """JSON ``normalizer`` -> a :class:`Normalizer` (``normalizer(text, align) -> (text, align)``),
    or None for no normalizer.

    Raises:
        TokenizerFileError: an unsupported normalizer or option (``where`` = its JSON path).
    """
    if spec is None:
        return None
    t = _type_of(spec, where, "normalizer")
    if t in ("NFC", "NFD", "NFKC", "NFKD"):
        return Normalizer(_unicode_norm(cast(UnicodeForm, t)), t, unicode_form=t)  # (one of the four, just checked)
    if t == "Lowercase":
        return Normalizer(_lowercase, t)
    if t == "StripAccents":
        return Normalizer(_strip_accents, t)
    if t == "Strip":
        _unknown_keys(spec, {"strip_left", "strip_right"}, where, t)
        return Normalizer(_strip_fn(bool(spec.get("strip_left", True)), bool(spec.get("strip_right", True))), t)
    if t == "Prepend":
        _unknown_keys(spec, {"prepend"}, where, t)
        return Normalizer(_prepend_fn(str(spec.get("prepend", ""))), t)
    if t == "Replace":
        _unknown_keys(spec, {"pattern", "content"}, where, t)
        pat, is_regex = split_pattern_of(spec.get("pattern"), where, t)
        content = spec.get("content", "")
        return Normalizer(
            _replace_fn(_finditer_fn(pat, is_regex, where, t), str(content)),
            t,
            # one plain character for one: each character stays one character, offsets kept
            one_to_one=not is_regex and len(pat) == 1 and isinstance(content, str) and len(content) == 1,
            replaces_space=content == "\u2581",
        )
    # Sequence
    built = [build_normalizer(s, f"{where}.normalizers[{i}]") for i, s in enumerate(spec.get("normalizers") or [])]
    parts = [p for p in built if p is not None]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    runs = [p.run for p in parts]

    def seq(text: str, align):
        for run in runs:
            text, align = run(text, align)
        return text, align

    return Normalizer(
        seq,
        t,
        members=parts,
        one_to_one=all(p.one_to_one for p in parts),
        replaces_space=any(p.replaces_space for p in parts),
    )


# -------------------------------------------------------------- pre-tokenizers
# A pre-tokenizer step: list of pieces -> list of pieces. A piece is
# (text, align, first) with `first` True when it starts at original offset 0
# (Metaspace's prepend_scheme "first" asks that, as tokenizers' offsets_original().0 == 0).


def _split_piece(piece, spans: list[tuple[int, int, bool]]):
    """Cut one piece at (start, end, is_match) spans covering it; empty ones dropped."""
    text, align, first = piece
    out = []
    for a, b, _ in spans:
        if a < b:
            if align is None:
                out.append((text[a:b], None, first and a == 0))
            else:  # tokenizers' offsets_original().0 == 0: the piece starts at the text's start
                out.append((text[a:b], align[a:b], align[a][0] == 0))
    return out


def _behave(matches: list[tuple[int, int]], n: int, behavior: str, invert: bool) -> list[tuple[int, int, bool]]:
    """tokenizers' NormalizedString::split: matches + gaps -> the kept spans, by behavior."""
    if n == 0:
        return []
    segs: list[tuple[int, int, bool]] = []
    prev = 0
    for a, b in matches:
        if prev != a:
            segs.append((prev, a, False))
        segs.append((a, b, True))
        prev = b
    if prev != n:
        segs.append((prev, n, False))
    if invert:
        segs = [(a, b, not m) for a, b, m in segs]
    if behavior == "Isolated":
        return segs
    if behavior == "Removed":
        return [s for s in segs if not s[2]]
    out: list[list] = []
    prev_match = False
    if behavior == "MergedWithPrevious":
        for a, b, m in segs:
            if m and not prev_match and out:
                out[-1][1] = b
            else:
                out.append([a, b, False])
            prev_match = m
    elif behavior == "MergedWithNext":
        for a, b, m in reversed(segs):
            if m and not prev_match and out:
                out[-1][0] = a
            else:
                out.append([a, b, False])
            prev_match = m
        out.reverse()
    elif behavior == "Contiguous":
        for a, b, m in segs:
            if m == prev_match and out:
                out[-1][1] = b
            else:
                out.append([a, b, False])
            prev_match = m
    return [tuple(s) for s in out]


_BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")


def _split_step(find, behavior: str, invert: bool):
    def step(pieces):
        out = []
        for p in pieces:
            out += _split_piece(p, _behave(find(p[0]), len(p[0]), behavior, invert))
        return out

    return step


def _char_find(pred: Callable[[str], bool]):
    def find(s: str) -> list[tuple[int, int]]:
        return [(i, i + 1) for i, ch in enumerate(s) if pred(ch)]

    return find


def _is_punc(ch: str) -> bool:
    # tokenizers: char::is_ascii_punctuation || char::is_punctuation (general category P*)
    return (
        ("!" <= ch <= "/")
        or (":" <= ch <= "@")
        or ("[" <= ch <= "`")
        or ("{" <= ch <= "~")
        or unicodedata.category(ch).startswith("P")
    )


def _is_numeric(ch: str) -> bool:
    # Rust char::is_numeric: general categories Nd, Nl, No
    return unicodedata.category(ch) in ("Nd", "Nl", "No")


#: GPT-2's split pattern: ``tokenizers``' ByteLevel pre-tokenizer regex (``use_regex: true``).
BYTE_LEVEL_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"


def _byte_level_step(add_prefix_space: bool, use_regex: bool):
    find = _finditer_fn(BYTE_LEVEL_PATTERN, True, "", "ByteLevel") if use_regex else None

    def step(pieces):
        out = []
        for text, align, first in pieces:
            if add_prefix_space and not text.startswith(" "):
                text = " " + text
                if align is not None:
                    align = [(align[0][0], align[0][0])] + align if align else [(0, 0)]
            if find is not None:
                parts = _split_piece((text, align, first), _behave(find(text), len(text), "Isolated", False))
            else:
                parts = [(text, align, first)]
            for t, al, f in parts:
                mapped = byte_level_map(t)
                if al is not None and len(mapped) != len(t):
                    new_al = []
                    for ch, a in zip(t, al):
                        new_al.extend([a] * len(ch.encode("utf-8", "surrogatepass")))
                    al = new_al
                out.append((mapped, al, f))
        return out

    return step


def _metaspace_step(replacement: str, scheme: str, split: bool):
    def step(pieces):
        out = []
        for text, align, first in pieces:
            text = text.replace(" ", replacement)
            if not text.startswith(replacement) and (scheme == "always" or (scheme == "first" and first)):
                text = replacement + text
                if align is not None:
                    align = [(align[0][0], align[0][0]) if align else (0, 0)] + align
            if split:
                find = _char_find(lambda c: c == replacement)
                out += _split_piece((text, align, first), _behave(find(text), len(text), "MergedWithNext", False))
            elif text:
                out.append((text, align, first))
        return out

    return step


def build_pre_tokenizer(spec: Any, where: str = "pre_tokenizer") -> PreTokenizer | None:
    """JSON ``pre_tokenizer`` -> a :class:`PreTokenizer` (``pre_tokenizer(pieces) -> pieces``;
    ``.info``: the stage as ``describe()`` shows it), or None for no pre-tokenizer.

    Raises:
        TokenizerFileError: an unsupported pre-tokenizer or option.
    """
    if spec is None:
        return None
    t = _type_of(spec, where, "pre_tokenizer")
    if t == "Sequence":
        built = [
            build_pre_tokenizer(s, f"{where}.pretokenizers[{i}]") for i, s in enumerate(spec.get("pretokenizers") or [])
        ]
        members = [s for s in built if s is not None]
        info: dict[str, Any] = {"type": "Sequence", "pretokenizers": [s.info for s in members]}
        return PreTokenizer(_run_in_turn([s.run for s in members]), t, info, members=members)
    if t == "Split":
        _unknown_keys(spec, {"pattern", "behavior", "invert"}, where, t)
        pat, is_regex = split_pattern_of(spec.get("pattern"), where, t)
        behavior = spec.get("behavior", "Isolated")
        if behavior not in _BEHAVIORS:
            raise _err(f"Split at {where}: unsupported behavior {behavior!r}", where + ".behavior", t)
        invert = bool(spec.get("invert", False))
        info = {"type": "Split", ("regex" if is_regex else "string"): pat, "behavior": behavior, "invert": invert}
        finder: Finder | None = None
        if is_regex:
            compiled = _compiled(pat, where, t)
            find: Callable[[str], list[tuple[int, int]]] = lambda s: [m.span() for m in compiled.finditer(s)]  # noqa: E731
            finder = compiled.finditer
        else:
            find = _finditer_fn(pat, False, where, t)
            finder = pat if pat else None  # (an empty string matches nothing: one piece)
        if behavior != "Isolated" or invert:
            finder = None
        return PreTokenizer(_split_step(find, behavior, invert), t, info, isolated_finder=finder)
    if t == "ByteLevel":
        _unknown_keys(spec, {"add_prefix_space", "trim_offsets", "use_regex"}, where, t)
        aps, use_regex = bool(spec.get("add_prefix_space", True)), bool(spec.get("use_regex", True))
        info = {"type": "ByteLevel", "add_prefix_space": aps, "use_regex": use_regex}
        if use_regex:
            info["regex"] = BYTE_LEVEL_PATTERN
        return PreTokenizer(_byte_level_step(aps, use_regex), t, info)
    if t == "Metaspace":
        _unknown_keys(spec, {"replacement", "prepend_scheme", "split", "add_prefix_space", "str_rep"}, where, t)
        rep = spec.get("replacement", "\u2581")
        scheme = spec.get("prepend_scheme")
        if scheme is None:  # files from before prepend_scheme: add_prefix_space true -> "always"
            scheme = "always" if spec.get("add_prefix_space", True) else "never"
        if scheme not in ("always", "first", "never"):
            raise _err(f"Metaspace at {where}: unsupported prepend_scheme {scheme!r}", where + ".prepend_scheme", t)
        split = bool(spec.get("split", True))
        info = {"type": "Metaspace", "replacement": rep, "prepend_scheme": scheme, "split": split}
        return PreTokenizer(_metaspace_step(rep, scheme, split), t, info, asks_first=scheme == "first")
    if t == "Digits":
        _unknown_keys(spec, {"individual_digits"}, where, t)
        ind = bool(spec.get("individual_digits", False))
        step = _split_step(_char_find(_is_numeric), "Isolated" if ind else "Contiguous", False)
        return PreTokenizer(step, t, {"type": "Digits", "individual_digits": ind})
    if t == "Punctuation":
        _unknown_keys(spec, {"behavior"}, where, t)
        behavior = spec.get("behavior", "Isolated")
        if behavior not in _BEHAVIORS:
            raise _err(f"Punctuation at {where}: unsupported behavior {behavior!r}", where + ".behavior", t)
        return PreTokenizer(
            _split_step(_char_find(_is_punc), behavior, False), t, {"type": "Punctuation", "behavior": behavior}
        )
    if t == "Whitespace":
        find = _finditer_fn(r"\w+|[^\w\s]+", True, where, t)
        return PreTokenizer(_split_step(find, "Removed", True), t, {"type": "Whitespace", "regex": r"\w+|[^\w\s]+"})
    # WhitespaceSplit
    return PreTokenizer(
        _split_step(_char_find(WHITE_SPACE.__contains__), "Removed", False), t, {"type": "WhitespaceSplit"}
    )


# ------------------------------------------------------------- post-processors
def build_post_processor(
    spec: Any, where: str = "post_processor", token_to_id: Callable[[str], int | None] = lambda s: None
):
    """JSON ``post_processor`` -> (list of pieces to put around the ids, info).

    The template is a list of items: ``"A"`` for the encoded sequence, or a
    list of special-token ids to add (only when ``add_special_tokens``).
    ``None`` means ``["A"]`` (nothing added).

    Raises:
        TokenizerFileError: an unsupported post-processor or option.
    """
    if spec is None:
        return None, None
    t = _type_of(spec, where, "post_processor")
    if t == "ByteLevel":  # only trims offsets: no ids change
        return None, {"type": "ByteLevel"}
    if t == "TemplateProcessing":
        single = spec.get("single")
        specials = spec.get("special_tokens") or {}
        if not isinstance(single, list):
            raise _err(f'TemplateProcessing at {where}: "single" must be a list', where + ".single", t)
        template: list = []
        shown = []
        for i, item in enumerate(single):
            if isinstance(item, dict) and "Sequence" in item:
                if item["Sequence"].get("id") != "A":
                    raise _err(
                        f"TemplateProcessing at {where}: the single template can only use sequence A",
                        f"{where}.single[{i}]",
                        t,
                    )
                template.append("A")
                shown.append("$A")
            elif isinstance(item, dict) and "SpecialToken" in item:
                key = item["SpecialToken"].get("id")
                tok = specials.get(key)
                if not isinstance(tok, dict) or not isinstance(tok.get("ids"), list):
                    raise _err(
                        f"TemplateProcessing at {where}: special token {key!r} is missing from special_tokens",
                        f"{where}.single[{i}]",
                        t,
                    )
                template.append([int(x) for x in tok["ids"]])
                shown.append(key)
            else:
                raise _err(f"TemplateProcessing at {where}: unknown template item {item!r}", f"{where}.single[{i}]", t)
        return template, {"type": "TemplateProcessing", "single": shown}
    if t in ("BertProcessing", "RobertaProcessing"):
        try:
            cls_tok, cls_id = spec["cls"]
            sep_tok, sep_id = spec["sep"]
        except (KeyError, TypeError, ValueError) as e:
            raise _err(f'{t} at {where}: needs "cls" and "sep" as [token, id]', where, t) from e
        return [[int(cls_id)], "A", [int(sep_id)]], {"type": t, "single": [cls_tok, "$A", sep_tok]}
    # Sequence: apply each in turn
    built = [
        build_post_processor(s, f"{where}.processors[{i}]", token_to_id)
        for i, s in enumerate(spec.get("processors") or [])
    ]
    template = ["A"]
    for tpl, _ in built:
        if tpl is None:
            continue
        new = []
        for item in tpl:
            new.extend(template if item == "A" else [item])
        template = new
    return (None if template == ["A"] else template), {
        "type": "Sequence",
        "processors": [i for _, i in built if i is not None],
    }


# -------------------------------------------------------------------- decoders
def _bf_flush(buf: list[int], out: list[str]) -> None:
    try:
        out.append(bytes(buf).decode("utf-8"))
    except UnicodeDecodeError:
        out.extend(["\ufffd"] * len(buf))
    buf.clear()


def _byte_fallback(tokens: list[str]) -> list[str]:
    out: list[str] = []
    buf: list[int] = []
    for t in tokens:
        b = None
        if len(t) == 6 and t.startswith("<0x") and t.endswith(">"):
            try:
                b = int(t[3:5], 16)
            except ValueError:
                b = None
            if b is not None and not all(c in "0123456789abcdefABCDEF" for c in t[3:5]):
                b = None
        if b is not None:
            buf.append(b)
        else:
            if buf:
                _bf_flush(buf, out)
            out.append(t)
    if buf:
        _bf_flush(buf, out)
    return out


#: ByteLevel's character -> byte (the inverse of the GPT-2 byte map).
U2B = {c: b for b, c in _B2U.items()}


def _byte_level_decode(tokens: list[str]) -> list[str]:
    data = bytearray()
    for t in tokens:
        try:
            data += bytes([U2B[c] for c in t])
        except KeyError:
            data += t.encode("utf-8", "surrogatepass")
    return [data.decode("utf-8", "replace")]


def build_decoder(spec: Any, where: str = "decoder") -> Decoder | None:
    """JSON ``decoder`` -> a :class:`Decoder` (``decoder(tokens: list[str]) -> list[str]``,
    tokenizers' ``decode_chain``), or None.

    Raises:
        TokenizerFileError: an unsupported decoder or option.
    """
    if spec is None:
        return None
    t = _type_of(spec, where, "decoder")
    if t == "Sequence":
        built = [build_decoder(s, f"{where}.decoders[{i}]") for i, s in enumerate(spec.get("decoders") or [])]
        members = [p for p in built if p is not None]
        return Decoder(_run_in_turn([p.run for p in members]), t, members)
    return Decoder(_decode_fn(spec, t, where), t)


def _decode_fn(spec: dict, t: str, where: str) -> Callable[[list[str]], list[str]]:
    """One decoder (not a Sequence) of type ``t`` as a function."""
    if t == "ByteLevel":
        return _byte_level_decode
    if t == "ByteFallback":
        return _byte_fallback
    if t == "Fuse":
        return lambda tokens: ["".join(tokens)]
    if t == "Metaspace":
        rep = spec.get("replacement", "\u2581")
        scheme = spec.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if spec.get("add_prefix_space", True) else "never"

        def meta(tokens):
            out = []
            for i, tok in enumerate(tokens):
                if i == 0 and scheme != "never":
                    out.append(tok.replace(rep, ""))
                else:
                    out.append(tok.replace(rep, " "))
            return out

        return meta
    if t == "Strip":
        _unknown_keys(spec, {"content", "start", "stop"}, where, t)
        content, start, stop = spec.get("content", " "), int(spec.get("start", 0)), int(spec.get("stop", 0))

        def strip(tokens):
            out = []
            for tok in tokens:
                a = 0
                for i in range(min(start, len(tok))):
                    if tok[i] == content:
                        a = i + 1
                    else:
                        break
                b = len(tok)
                for i in range(min(stop, len(tok))):
                    j = len(tok) - i - 1
                    if tok[j] == content:
                        b = j
                    else:
                        break
                out.append(tok[a:b] if a <= b else "")
            return out

        return strip
    if t == "Replace":
        _unknown_keys(spec, {"pattern", "content"}, where, t)
        pat, is_regex = split_pattern_of(spec.get("pattern"), where, t)
        rep = _replace_fn(_finditer_fn(pat, is_regex, where, t), str(spec.get("content", "")))
        return lambda tokens: [rep(tok, None)[0] for tok in tokens]
    raise AssertionError(t)  # (every supported type is handled above)
