"""Optional Unicode normalization of text before training or encoding.

Byte-level BPE (GPT-2, tiktoken, minbpe) normalizes nothing: the default is
``None``. ``"NFC"`` composes characters canonically (``"e" + U+0301`` ->
``"é"``); the text looks the same and nothing is lost that Unicode considers
meaningful. ``"NFKC"`` also applies compatibility mappings and is NOT
reversible: ``"ﬁ"`` -> ``"fi"``, ``"①"`` -> ``"1"``, ``"Ｈ"`` (fullwidth) ->
``"H"``, ``"x²"`` -> ``"x2"``; decoding the tokens gives the normalized text,
not the original. Forms are defined by Unicode Standard Annex #15 and computed
by :func:`unicodedata.normalize` (the Unicode version of the running Python).
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from .errors import ArgumentError

__all__ = ["NORMALIZATION_FORMS", "normalize"]

#: The forms ``unicodedata.normalize`` knows (a type: tokenizer.json normalizers name all four).
UnicodeForm = Literal["NFC", "NFD", "NFKC", "NFKD"]

#: Accepted values of ``normalization=`` / ``form``.
NORMALIZATION_FORMS: tuple[str | None, ...] = (None, "NFC", "NFKC")


def normalize(text: str, form: str | None) -> str:
    """Normalize ``text`` with ``form`` (``None``, ``"NFC"`` or ``"NFKC"``).

    Args:
        text: input *characters*.
        form: ``None`` returns ``text`` unchanged; ``"NFC"`` is canonical
            composition (reversible up to canonical equivalence); ``"NFKC"`` is
            compatibility composition, which is NOT reversible (``"ﬁ"`` -> ``"fi"``,
            ``"①"`` -> ``"1"``). The length in characters may change either way.

    Returns:
        the normalized ``str``.

    Raises:
        TypeError: ``text`` is not a ``str``.
        ArgumentError (a ValueError, ``field="normalization"``): ``form`` is not one of ``None``, ``"NFC"``, ``"NFKC"``
            (the decomposed forms ``"NFD"``/``"NFKD"`` are not offered).
    """
    if form not in NORMALIZATION_FORMS:
        raise ArgumentError(f"unknown normalization {form!r}; use one of None, 'NFC', 'NFKC'", field="normalization")
    if not isinstance(text, str):
        raise TypeError(f"normalize expects str, got {type(text).__name__}")
    if form is None:
        return text
    return unicodedata.normalize(form, text)  # type: ignore[arg-type]  # form: one of NORMALIZATION_FORMS (checked above)
