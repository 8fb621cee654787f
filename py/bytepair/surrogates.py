"""Lone surrogates, the way tiktoken treats them.

A Python ``str`` (and a JavaScript string reaching Pyodide) can hold lone
UTF-16 surrogates (U+D800-U+DFFF), which UTF-8 cannot encode. tiktoken's
``Encoding.encode`` (``tiktoken/core.py``) then round-trips the text through
UTF-16 with ``surrogatepass`` and decodes with ``replace``: lone surrogates
become U+FFFD and a surrogate pair written as two code points becomes its
character. Encoding, training and the step-through all follow that rule.

>>> fix_surrogates("a\\ud800b")
'a\\ufffdb'
>>> utf8("a\\ud800")
b'a\\xef\\xbf\\xbd'
"""

from __future__ import annotations

__all__ = ["fix_surrogates", "utf8"]


def fix_surrogates(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD and written-out pairs joined (characters in, characters out)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def utf8(text: str) -> bytes:
    """The UTF-8 bytes of ``text``, after :func:`fix_surrogates` when it holds lone surrogates."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return fix_surrogates(text).encode("utf-8")
