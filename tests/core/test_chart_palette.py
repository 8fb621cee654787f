"""Chart series colours (issue 21): every built-in tokenizer has its own colour in both themes, and
every pair differs by at least 20 CIEDE2000 as seen with normal vision and with simulated
protanopia and deuteranopia.

References: CIEDE2000 and the CVD simulation are colour-science's (``colour.delta_E`` method
"CIE 2000" after Sharma, Wu & Dalal 2005; ``colour.matrix_cvd_Machado2009`` after Machado,
Oliveira & Fernandes 2009, severity 1.0, applied to linear sRGB). The CIEDE2000 function is first
checked against pairs of Sharma et al.'s published test data (Table 1). The palette is read from
web/src/palette.js; the built-in tokenizers from bytepair.app.facts().
"""

from __future__ import annotations

import itertools
import re
import warnings
from pathlib import Path

import pytest

from bytepair.app.facts import facts

np = pytest.importorskip("numpy")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    colour = pytest.importorskip("colour")

PALETTE_JS = Path(__file__).resolve().parents[2] / "web" / "src" / "palette.js"
MIN_DELTA_E = 20.0

#: Sharma, Wu & Dalal (2005), Table 1: (Lab 1, Lab 2, published ΔE00), pairs 1, 7, 17, 25, 34.
SHARMA_PAIRS = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


def palette() -> dict[str, dict[str, str]]:
    """{theme: {tokenizer: '#rrggbb'}} as web/src/palette.js defines SERIES_COLOURS."""
    src = PALETTE_JS.read_text(encoding="utf-8")
    body = src[src.index("export const SERIES_COLOURS") :]
    out: dict[str, dict[str, str]] = {}
    for theme in ("light", "dark"):
        block = re.search(theme + r": \{(.*?)\}", body, re.S)
        assert block, theme
        out[theme] = {k.strip('"'): v for k, v in re.findall(r'("[\w.-]+"|[\w.]+): "(#[0-9a-f]{6})"', block.group(1))}
    return out


def _lab(rgb_linear):
    xyz = colour.RGB_to_XYZ(np.clip(rgb_linear, 0, 1), "sRGB", apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz)


def views(hexes: list[str]) -> dict[str, object]:
    """Lab of the colours as seen: normal, protanopia and deuteranopia (Machado 2009, severity 1)."""
    srgb = np.array([[int(h[i : i + 2], 16) / 255 for i in (1, 3, 5)] for h in hexes])
    lin = colour.cctf_decoding(srgb, function="sRGB")
    out = {"normal": _lab(lin)}
    for name, kind in (("protanopia", "Protanomaly"), ("deuteranopia", "Deuteranomaly")):
        m = colour.matrix_cvd_Machado2009(kind, 1.0)
        out[name] = _lab(lin @ m.T)
    return out


def test_ciede2000_matches_sharmas_published_pairs():
    for a, b, expected in SHARMA_PAIRS:
        got = float(colour.delta_E(np.array(a), np.array(b), method="CIE 2000"))
        assert got == pytest.approx(expected, abs=1e-4), (a, b)


def test_every_built_in_tokenizer_has_a_colour_in_both_themes():
    f = facts()
    built_in = {t["name"] for t in f["tokenizers"] if t["listed"]} | {m["name"] for m in f["open_models"]}
    pal = palette()
    for theme, colours in pal.items():
        assert set(colours) == built_in, theme
        assert len(set(colours.values())) == len(colours), theme


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_pair_of_series_colours_differs_by_20_ciede2000_also_for_protanopia_and_deuteranopia(theme):
    colours = palette()[theme]
    names = list(colours)
    worst = []
    for vision, lab in views([colours[n] for n in names]).items():
        for i, j in itertools.combinations(range(len(names)), 2):
            d = float(colour.delta_E(lab[i], lab[j], method="CIE 2000"))
            worst.append((d, vision, names[i], names[j]))
    low = [w for w in worst if w[0] < MIN_DELTA_E]
    assert not low, sorted(low)[:5]
    print(theme, "closest pair:", min(worst))
