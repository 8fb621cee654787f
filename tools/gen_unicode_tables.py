"""Generate ``py/bytepair/split/_unicode_tables.py`` from the ``regex`` module itself.

Run from the repository root::

    python tools/gen_unicode_tables.py            # writes py/bytepair/split/_unicode_tables.py
    python tools/gen_unicode_tables.py --check    # exit 1 if the committed file is stale

Why: in Pyodide there is no ``regex`` build, so split patterns run on the standard
``re`` after ``bytepair.split.retranslate.to_stdlib_re`` expands ``\\p{..}``, ``\\s``,
``\\d``, ``\\w`` ... into code-point ranges. Those ranges must be exactly what
``regex`` matches (``regex``'s ``\\s`` excludes U+001C..U+001F, ``re``'s includes
them; the Unicode versions differ too), so every table here is measured, not
written by hand: for each class the generator runs ``regex`` over one string
holding every code point U+0000..U+10FFFF (lone surrogates included) and records
the runs it matches.

What is generated (all keyed by a readable class name):

* ``RANGES``: class name -> code-point ranges, a string of space-separated hex
  items ``lo-hi`` or ``cp`` (parsed lazily, per class, by ``retranslate``).
* ``PROPERTY_NAMES``: loose property spelling (lower case, no spaces,
  underscores or hyphens, ``:`` written ``=``) -> class name, for ``\\p{..}``:
  general categories and their groups (short and long names, ``gc=`` forms),
  common scripts (``Latin``, ``sc=Latn``, ``scx=Latin`` ...) and binary
  properties. Only spellings ``regex`` accepts are kept.
* ``ESCAPES``: ``"s"``, ``"d"``, ``"w"``, ``"h"`` (``regex``'s horizontal space) and
  ``"ascii_s"`` ... (their meaning under the ``(?a)`` flag) -> class name.
* ``POSIX``: ``[[:alpha:]]``-style class names -> class name.
* ``CASE_STABLE``: classes on which ``regex``'s IGNORECASE has no effect
  (``(?i)\\p{X}``, ``(?i)\\P{X}`` and ``(?i)[^\\p{X}]`` match as without it).
  ``\\p{Lu}`` is not stable: under ``(?i)`` ``regex`` widens it to all cased
  letters.
* ``CASE_VARIANTS``: for every character that matches more than itself under
  ``(?i)`` in ``regex`` (simple case folding, plus ``regex``'s Turkish-i
  asymmetry: ``(?i)i`` matches U+0130, ``(?i)I`` matches U+0131), the set it
  matches. Groups separated by ``;``: ``"41 61"`` means both characters match
  exactly {41, 61}; ``"49>49 69 131"`` means U+0049 matches {49, 69, 131}.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import pathlib
import re as _stdlib_re
import sys
import time

import regex

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "py" / "bytepair" / "split" / "_unicode_tables.py"
MAX_CP = 0x10FFFF
ALL = "".join(map(chr, range(MAX_CP + 1)))

# General categories (Unicode UAX #44, PropertyValueAliases.txt): short, long, extra aliases.
GENERAL_CATEGORIES = [
    ("L", "Letter", []),
    ("LC", "Cased_Letter", ["L&"]),
    ("Lu", "Uppercase_Letter", []),
    ("Ll", "Lowercase_Letter", []),
    ("Lt", "Titlecase_Letter", []),
    ("Lm", "Modifier_Letter", []),
    ("Lo", "Other_Letter", []),
    ("M", "Mark", ["Combining_Mark"]),
    ("Mn", "Nonspacing_Mark", []),
    ("Mc", "Spacing_Mark", []),
    ("Me", "Enclosing_Mark", []),
    ("N", "Number", []),
    ("Nd", "Decimal_Number", ["digit"]),
    ("Nl", "Letter_Number", []),
    ("No", "Other_Number", []),
    ("P", "Punctuation", ["punct"]),
    ("Pc", "Connector_Punctuation", []),
    ("Pd", "Dash_Punctuation", []),
    ("Ps", "Open_Punctuation", []),
    ("Pe", "Close_Punctuation", []),
    ("Pi", "Initial_Punctuation", []),
    ("Pf", "Final_Punctuation", []),
    ("Po", "Other_Punctuation", []),
    ("S", "Symbol", []),
    ("Sm", "Math_Symbol", []),
    ("Sc", "Currency_Symbol", []),
    ("Sk", "Modifier_Symbol", []),
    ("So", "Other_Symbol", []),
    ("Z", "Separator", []),
    ("Zs", "Space_Separator", []),
    ("Zl", "Line_Separator", []),
    ("Zp", "Paragraph_Separator", []),
    ("C", "Other", []),
    ("Cc", "Control", ["cntrl"]),
    ("Cf", "Format", []),
    ("Cs", "Surrogate", []),
    ("Co", "Private_Use", []),
    ("Cn", "Unassigned", []),
]

# Scripts: long name (Scripts.txt) and ISO 15924 code (PropertyValueAliases.txt).
SCRIPTS = [
    ("Latin", "Latn"),
    ("Greek", "Grek"),
    ("Cyrillic", "Cyrl"),
    ("Armenian", "Armn"),
    ("Hebrew", "Hebr"),
    ("Arabic", "Arab"),
    ("Syriac", "Syrc"),
    ("Thaana", "Thaa"),
    ("Nko", "Nkoo"),
    ("Devanagari", "Deva"),
    ("Bengali", "Beng"),
    ("Gurmukhi", "Guru"),
    ("Gujarati", "Gujr"),
    ("Oriya", "Orya"),
    ("Tamil", "Taml"),
    ("Telugu", "Telu"),
    ("Kannada", "Knda"),
    ("Malayalam", "Mlym"),
    ("Sinhala", "Sinh"),
    ("Thai", "Thai"),
    ("Lao", "Laoo"),
    ("Tibetan", "Tibt"),
    ("Myanmar", "Mymr"),
    ("Georgian", "Geor"),
    ("Hangul", "Hang"),
    ("Ethiopic", "Ethi"),
    ("Cherokee", "Cher"),
    ("Canadian_Aboriginal", "Cans"),
    ("Ogham", "Ogam"),
    ("Runic", "Runr"),
    ("Khmer", "Khmr"),
    ("Mongolian", "Mong"),
    ("Hiragana", "Hira"),
    ("Katakana", "Kana"),
    ("Bopomofo", "Bopo"),
    ("Han", "Hani"),
    ("Yi", "Yiii"),
    ("Tifinagh", "Tfng"),
    ("Vai", "Vaii"),
    ("Javanese", "Java"),
    ("Balinese", "Bali"),
    ("Sundanese", "Sund"),
    ("Tagalog", "Tglg"),
    ("Coptic", "Copt"),
    ("Gothic", "Goth"),
    ("Braille", "Brai"),
    ("Ol_Chiki", "Olck"),
    ("Adlam", "Adlm"),
    ("Common", "Zyyy"),
    ("Inherited", "Zinh"),
    ("Unknown", "Zzzz"),
]

# Binary properties (PropertyAliases.txt): long name and short aliases.
BINARY = [
    ("Alphabetic", ["Alpha"]),
    ("White_Space", ["WSpace", "Space"]),
    ("Uppercase", ["Upper"]),
    ("Lowercase", ["Lower"]),
    ("Cased", []),
    ("Case_Ignorable", ["CI"]),
    ("Math", []),
    ("Dash", []),
    ("Hex_Digit", ["XDigit"]),
    ("ASCII_Hex_Digit", ["AHex"]),
    ("Ideographic", ["Ideo"]),
    ("Diacritic", ["Dia"]),
    ("Extender", ["Ext"]),
    ("Quotation_Mark", ["QMark"]),
    ("Join_Control", ["Join_C"]),
    ("Default_Ignorable_Code_Point", ["DI"]),
    ("Noncharacter_Code_Point", ["NChar"]),
    ("Emoji", []),
    ("Emoji_Presentation", ["EPres"]),
    ("Emoji_Modifier", ["EMod"]),
    ("Emoji_Modifier_Base", ["EBase"]),
    ("Emoji_Component", ["EComp"]),
    ("Extended_Pictographic", ["ExtPict"]),
    ("Regional_Indicator", ["RI"]),
    ("Variation_Selector", ["VS"]),
    ("Any", []),
    ("Assigned", []),
    ("ASCII", []),
    ("Word", []),
    ("Alnum", []),
    ("Blank", []),
    ("Graph", []),
    ("Print", []),
]

POSIX_NAMES = [
    "alnum",
    "alpha",
    "ascii",
    "blank",
    "cntrl",
    "digit",
    "graph",
    "lower",
    "print",
    "punct",
    "space",
    "upper",
    "word",
    "xdigit",
]


def loose(name: str) -> str:
    """Loose property-name matching (same rule as ``retranslate._loose``)."""
    return "".join(ch for ch in name.lower() if ch not in " _-").replace(":", "=")


def measure(pattern: str) -> list[tuple[int, int]]:
    """Inclusive code-point ranges of the characters ``regex`` matches with ``pattern``.

    ``pattern`` must match exactly one character; it is run as ``(?:pattern)+``
    (after its leading inline flags) over the string of all code points, so each
    match is one run.
    """
    # Leading inline flags stay in front: regex reads "(?:(?a)\\h)+" differently from "(?a)(?:\\h)+".
    flags, body = _stdlib_re.fullmatch(r"((?:\(\?[a-zA-Z]+\))*)(.*)", pattern, _stdlib_re.S).groups()
    rx = regex.compile("%s(?:%s)+" % (flags, body))
    return [(m.start(), m.end() - 1) for m in rx.finditer(ALL)]


def complement(ranges):
    out, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CP:
        out.append((nxt, MAX_CP))
    return out


def encode(ranges) -> str:
    return " ".join("%x" % lo if lo == hi else "%x-%x" % (lo, hi) for lo, hi in ranges)


def try_measure(pattern: str):
    try:
        return measure(pattern)
    except regex.error:
        return None


def case_stable(pos: str, neg_class: str, ranges) -> bool:
    """True when regex's IGNORECASE changes nothing for this class (pos = atom, neg_class = [^..])."""
    comp = complement(ranges)
    return measure("(?i)" + pos) == ranges and measure("(?i)" + neg_class) == comp


def case_variants() -> dict[int, frozenset[int]]:
    """For each character whose ``(?i)`` match set in regex is larger than itself: that set."""
    cand = {
        c for lo, hi in measure(r"[\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]") for c in range(lo, hi + 1)
    }
    out: dict[int, frozenset[int]] = {}
    todo = sorted(cand)
    while todo:
        c = todo.pop()
        if c in out:
            continue
        got = frozenset(m.start() for m in regex.finditer("(?i)" + regex.escape(chr(c)), ALL))
        out[c] = got
        todo.extend(x for x in got if x not in out)
    return {c: v for c, v in out.items() if v != {c}}


def encode_variants(var: dict[int, frozenset[int]]) -> str:
    by_set: dict[frozenset[int], list[int]] = {}
    for c, v in var.items():
        by_set.setdefault(v, []).append(c)
    groups = []
    for v, chars in sorted(by_set.items(), key=lambda kv: min(kv[1])):
        vs = " ".join("%x" % c for c in sorted(v))
        if set(chars) == set(v):
            groups.append(vs)
        else:
            groups.append(" ".join("%x" % c for c in sorted(chars)) + ">" + vs)
    return ";".join(groups)


def build() -> str:
    t0 = time.time()
    ranges: dict[str, list[tuple[int, int]]] = {}
    probe: dict[str, tuple[str, str]] = {}  # class name -> (atom, negated class) for CASE_STABLE
    by_value: dict[tuple, str] = {}
    names: dict[str, str] = {}
    skipped: list[str] = []

    def add_class(name: str, atom: str, neg: str, rs) -> str:
        key = tuple(rs)
        if key in by_value:
            return by_value[key]
        by_value[key] = name
        ranges[name] = rs
        probe[name] = (atom, neg)
        return name

    def add_property(canonical: str, spellings: list[str]) -> None:
        rs = try_measure(r"\p{%s}" % canonical)
        if rs is None:
            skipped.append(canonical)
            return
        cls = add_class(canonical, r"\p{%s}" % canonical, r"[^\p{%s}]" % canonical, rs)
        for sp in [canonical, *spellings]:
            got = rs if sp == canonical else try_measure(r"\p{%s}" % sp)
            if got is None:
                skipped.append(sp)
                continue
            if got != rs:
                # Same spelling family, different set (e.g. scx vs sc): its own class.
                own = add_class(sp, r"\p{%s}" % sp, r"[^\p{%s}]" % sp, got)
                names.setdefault(loose(sp), own)
                continue
            names.setdefault(loose(sp), cls)

    for short, long_, extra in GENERAL_CATEGORIES:
        spell = [long_, *extra]
        for pre in ("gc=", "General_Category=", "Is"):
            spell += [pre + short, pre + long_]
        add_property(short, spell)
    for long_, code in SCRIPTS:
        spell = [code, "Is" + long_]
        for pre in ("sc=", "Script=", "scx=", "Script_Extensions="):
            spell += [pre + long_, pre + code]
        add_property(long_, spell)
    for long_, short in BINARY:
        add_property(long_, [*short, "Is" + long_] + ["Is" + s for s in short])

    escapes: dict[str, str] = {}
    for esc in "sdwh":
        for mode, flag in (("", ""), ("ascii_", "(?a)")):
            rs = measure(flag + "\\" + esc)
            name = add_class(flag + "\\" + esc, flag + "\\" + esc, flag + "[^\\" + esc + "]", rs)
            escapes[mode + esc] = name
    posix: dict[str, str] = {}
    for p in POSIX_NAMES:
        rs = try_measure("[[:%s:]]" % p)
        if rs is None:
            skipped.append("[[:%s:]]" % p)
            continue
        posix[p] = add_class("[:%s:]" % p, "[[:%s:]]" % p, "[^[:%s:]]" % p, rs)

    stable = sorted(n for n, (atom, neg) in probe.items() if case_stable(atom, neg, ranges[n]))
    variants = case_variants()
    print(
        f"measured {len(ranges)} classes, {len(names)} spellings, "
        f"{len(variants)} case-variant characters in {time.time() - t0:.1f} s",
        file=sys.stderr,
    )
    if skipped:
        print("regex rejects (skipped): " + ", ".join(skipped), file=sys.stderr)

    desc = importlib.metadata.metadata("regex").get_payload() or ""
    uni = _stdlib_re.findall(r"Unicode (\d+\.\d+(?:\.\d+)?)", desc)
    unicode_version = uni[0] if uni else "unknown"

    lines = [
        '"""GENERATED — do not edit. Run ``python tools/gen_unicode_tables.py``.',
        "",
        f"Measured from the ``regex`` module {regex.__version__} (Unicode {unicode_version},",
        "as stated in its package description) over every code point U+0000..U+10FFFF.",
        "See tools/gen_unicode_tables.py for the format; ``bytepair.split.retranslate`` reads it.",
        '"""',
        "",
        f"REGEX_VERSION = {regex.__version__!r}",
        f"UNICODE_VERSION = {unicode_version!r}",
        "",
        "RANGES = {",
    ]
    lines += [f"    {n!r}: {encode(rs)!r}," for n, rs in ranges.items()]
    lines += ["}", "", "PROPERTY_NAMES = {"]
    lines += [f"    {k!r}: {v!r}," for k, v in sorted(names.items())]
    lines += ["}", "", "ESCAPES = {"]
    lines += [f"    {k!r}: {v!r}," for k, v in escapes.items()]
    lines += ["}", "", "POSIX = {"]
    lines += [f"    {k!r}: {v!r}," for k, v in posix.items()]
    lines += ["}", "", "CASE_STABLE = frozenset({"]
    lines += [f"    {n!r}," for n in stable]
    lines += ["})", "", f"CASE_VARIANTS = {encode_variants(variants)!r}", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare with the committed file")
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    args = ap.parse_args(argv)
    text = build()
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            print(f"{args.out} is stale: run python tools/gen_unicode_tables.py", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
