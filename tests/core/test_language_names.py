"""web/src/language-names.json (tools/gen_language_names.py): the sample corpora's language names
in the playground's locales from CLDR, for the languages the browser has no name for.

With the CLDR version the file was written from, the file is exactly what the generator writes
(stale otherwise: run ``python tools/gen_language_names.py``); with any version, it names only
tags the page asks for, and names the two the fresh tester found in English in Persian
(Inuktitut, Tibetan) as the installed CLDR does.
"""

from __future__ import annotations

import json

import pytest

babel = pytest.importorskip("babel")

from babel.core import get_cldr_version  # noqa: E402

from tools import gen_language_names as gen  # noqa: E402


def test_the_committed_names_are_cldrs():
    data = json.loads(gen.OUT.read_text(encoding="utf-8"))
    if data["cldr"] == get_cldr_version():
        assert gen.OUT.read_text(encoding="utf-8") == gen.generate(), "stale: python tools/gen_language_names.py"
    tags = set(gen.sample_tags())
    assert set(data) == {"cldr", *gen.LOCALES}
    for code in gen.LOCALES:
        names, locale = data[code], babel.Locale.parse(code)
        assert set(names) <= tags, code
        assert names["iu"] == locale.languages["iu"] and names["bo"] == locale.languages["bo"], code
