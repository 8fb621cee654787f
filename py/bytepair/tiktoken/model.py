"""Which encoding a model uses: tiktoken's model table, as data, and its look-up.

Source: tiktoken 0.14.0, ``tiktoken/model.py`` (``MODEL_TO_ENCODING`` and
``MODEL_PREFIX_TO_ENCODING``), read 2026-12-02; the table below is that
release's, written out here row by row. ``tests/core/test_tiktoken_compat.py``
compares every row and a list of model names with the installed tiktoken.
This is the one place bytepair names OpenAI models' encodings for the
tiktoken API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bytepair.errors import ArgumentTypeError, UnknownNameError

if TYPE_CHECKING:  # pragma: no cover
    from .core import Encoding

__all__ = [
    "MODEL_TABLE_SOURCE",
    "MODEL_TO_ENCODING",
    "MODEL_PREFIX_TO_ENCODING",
    "encoding_name_for_model",
    "encoding_for_model",
]

#: Where the two tables come from, and when they were taken.
MODEL_TABLE_SOURCE = "tiktoken 0.14.0 tiktoken/model.py, taken 2026-12-02"

_O200K = "o200k_base"
_CL100K = "cl100k_base"
_P50K = "p50k_base"
_R50K = "r50k_base"

#: Model name prefix -> encoding name. Order matters: the first prefix that
#: matches wins (``"ft:gpt-4o"`` before ``"ft:gpt-4"``).
MODEL_PREFIX_TO_ENCODING: dict[str, str] = dict(
    [
        # reasoning
        ("o1-", _O200K),
        ("o3-", _O200K),
        ("o4-mini-", _O200K),
        # chat
        ("gpt-5", _O200K),
        ("gpt-4.5-", _O200K),
        ("gpt-4.1-", _O200K),
        ("chatgpt-4o-", _O200K),
        ("gpt-4o-", _O200K),  # dated snapshots: gpt-4o-2024-05-13
        ("gpt-4-", _CL100K),  # gpt-4-0314, gpt-4-32k
        ("gpt-3.5-turbo-", _CL100K),  # gpt-3.5-turbo-0301
        ("gpt-35-turbo-", _CL100K),  # Azure deployment names
        ("gpt-oss-", "o200k_harmony"),
        # fine-tuned
        ("ft:gpt-4o", _O200K),
        ("ft:gpt-4", _CL100K),
        ("ft:gpt-3.5-turbo", _CL100K),
        ("ft:davinci-002", _CL100K),
        ("ft:babbage-002", _CL100K),
    ]
)

_EXACT: tuple[tuple[str, tuple[str, ...]], ...] = (
    # current models
    (_O200K, ("o1", "o3", "o4-mini", "gpt-5", "gpt-4.1", "gpt-4o")),
    (
        _CL100K,
        (
            "gpt-4",
            "gpt-3.5-turbo",
            "gpt-3.5",
            "gpt-35-turbo",
            "davinci-002",
            "babbage-002",
            "text-embedding-ada-002",
            "text-embedding-3-small",
            "text-embedding-3-large",
        ),
    ),
    # deprecated: text, code, edit and old embedding models
    (_P50K, ("text-davinci-003", "text-davinci-002")),
    (_R50K, ("text-davinci-001", "text-curie-001", "text-babbage-001", "text-ada-001")),
    (_R50K, ("davinci", "curie", "babbage", "ada")),
    (
        _P50K,
        (
            "code-davinci-002",
            "code-davinci-001",
            "code-cushman-002",
            "code-cushman-001",
            "davinci-codex",
            "cushman-codex",
        ),
    ),
    ("p50k_edit", ("text-davinci-edit-001", "code-davinci-edit-001")),
    (
        _R50K,
        (
            "text-similarity-davinci-001",
            "text-similarity-curie-001",
            "text-similarity-babbage-001",
            "text-similarity-ada-001",
            "text-search-davinci-doc-001",
            "text-search-curie-doc-001",
            "text-search-babbage-doc-001",
            "text-search-ada-doc-001",
            "code-search-babbage-code-001",
            "code-search-ada-code-001",
        ),
    ),
    # open source
    ("gpt2", ("gpt2", "gpt-2")),
)

#: Exact model name -> encoding name.
MODEL_TO_ENCODING: dict[str, str] = {model: enc for enc, models in _EXACT for model in models}


def encoding_name_for_model(model_name: str) -> str:
    """The name of the encoding model ``model_name`` uses (tiktoken's
    ``tiktoken.model.encoding_name_for_model``).

    An exact name in :data:`MODEL_TO_ENCODING` first, else the first prefix
    of :data:`MODEL_PREFIX_TO_ENCODING` the name starts with (so made-up
    versions such as ``"gpt-4o-2099-01-01"`` match too).

    Returns:
        An encoding name for :func:`bytepair.tiktoken.get_encoding`.

    Raises:
        UnknownNameError: (a ``KeyError``, ``field="model_name"``, ``known``:
            the exact names) no name or prefix matches; tiktoken's message.
        ArgumentTypeError: (a ``TypeError``) ``model_name`` is not a ``str``.
    """
    if not isinstance(model_name, str):
        raise ArgumentTypeError(f"model_name must be a str, not {type(model_name).__name__}", field="model_name")
    name = MODEL_TO_ENCODING.get(model_name)
    if name is not None:
        return name
    for prefix, name in MODEL_PREFIX_TO_ENCODING.items():
        if model_name.startswith(prefix):
            return name
    raise UnknownNameError(
        f"Could not automatically map {model_name} to a tokeniser. "
        "Please use `tiktoken.get_encoding` to explicitly get the tokeniser you expect.",
        field="model_name",
        known=list(MODEL_TO_ENCODING),
    )


def encoding_for_model(model_name: str) -> Encoding:
    """The :class:`~bytepair.tiktoken.Encoding` model ``model_name`` uses
    (``get_encoding(encoding_name_for_model(model_name))``; the same object
    on every call).

    Raises:
        UnknownNameError: (a ``KeyError``) an unknown model (see :func:`encoding_name_for_model`).
        FileNotFoundError: the encoding's rank file is not available.
    """
    from .registry import get_encoding

    return get_encoding(encoding_name_for_model(model_name))
