"""Optional Unicode normalization. Expected values are the decompositions in the
Unicode Character Database (UAX #15): U+FB01 'ﬁ' has the compatibility
decomposition 'f' 'i', U+2460 '①' is <circle> '1', U+FF28 'Ｈ' is <wide> 'H',
'e' + U+0301 composes canonically to U+00E9 'é'."""

from __future__ import annotations

import pytest

from bytepair.normalize import normalize

CASES = [
    ("none-keeps-ligature", "\ufb01ne", None, "\ufb01ne"),
    ("none-keeps-combining", "e\u0301", None, "e\u0301"),
    ("nfc-composes", "e\u0301", "NFC", "\u00e9"),
    ("nfc-keeps-ligature", "\ufb01", "NFC", "\ufb01"),
    ("nfc-keeps-circled", "\u2460", "NFC", "\u2460"),
    ("nfkc-ligature", "\ufb01", "NFKC", "fi"),
    ("nfkc-circled-one", "\u2460", "NFKC", "1"),
    ("nfkc-fullwidth", "\uff28", "NFKC", "H"),
    ("nfkc-composes", "e\u0301", "NFKC", "\u00e9"),
    ("ascii-unchanged", "plain text", "NFKC", "plain text"),
    ("empty", "", "NFC", ""),
]


@pytest.mark.parametrize("text,form,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_normalize(text, form, expected):
    assert normalize(text, form) == expected


def test_nfkc_is_not_reversible():
    # Two different inputs give the same output: the original cannot be recovered.
    assert normalize("\ufb01", "NFKC") == normalize("fi", "NFKC")
    assert normalize("\u2460", "NFKC") == normalize("1", "NFKC")


def test_docstring_warns_nfkc_not_reversible():
    assert "not reversible" in normalize.__doc__.lower()


@pytest.mark.parametrize("form", ["NFD", "NFKD", "nfc", "", "none"])
def test_unknown_form_lists_allowed(form):
    with pytest.raises(ValueError) as info:
        normalize("x", form)
    message = str(info.value)
    for allowed in ("None", "'NFC'", "'NFKC'"):
        assert allowed in message


def test_non_str_is_type_error():
    with pytest.raises(TypeError):
        normalize(b"bytes", "NFC")
