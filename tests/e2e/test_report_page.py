"""The Report view end to end (issue 23): a shipped encoding, an open model and a tokenizer
trained in the page, on the UDHR samples, then the FLORES-200 subset; one page load.

References: tiktoken (cl100k_base counts), Hugging Face ``tokenizers`` (Qwen 3's counts from its
tokenizer.json), PyPI ``tokenization-scorer`` (Rényi efficiency of the page's cl100k_base ids),
and the same figures computed in CPython by bytepair (Petrov et al.'s premium, the FLORES subset's
premium) - the page must show what CPython computes.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from tests import hf_models
from tests.e2e import helpers as h

pytestmark = pytest.mark.e2e

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cell(page, lang: str, tok: str, metric: str) -> str:
    return page.get_attribute(
        f'[data-testid="report-row"][data-lang="{lang}"] td[data-tokenizer="{tok}"][data-metric="{metric}"]',
        "data-value",
    )


def test_report_view_three_kinds_of_tokenizer_and_the_flores_subset(page, site_url):
    import bytepair
    from bytepair import report
    from bytepair.report import published as report_published

    ref_qwen = hf_models.reference("qwen3")
    cl100k = h.tiktoken_for("cl100k_base")
    udhr = {
        row["code"]: row["text"] for row in json.loads((ROOT / "web/dist/samples/udhr.json").read_text())["languages"]
    }

    h.open_ready(page, site_url)
    h.train(page, udhr["eng"] + "\n" + udhr["hin"], 300, name="my-bpe")
    page.goto(site_url + "#report?src=udhr&tok=cl100k_base,qwen3,my-bpe&base=eng")
    page.wait_for_selector('[data-testid="report-baseline"] option[value="eng"]', state="attached")
    page.get_by_test_id("report-button").click()
    page.wait_for_selector('#view-report[data-reported="132"]', timeout=240_000)  # 44 languages x 3

    # counts: cl100k_base as tiktoken, Qwen 3 as tokenizers (no BOS: the report encodes ordinary text)
    for lang in ("eng", "hin", "tha", "cmn_hans"):
        assert int(_cell(page, lang, "cl100k_base", "tokens")) == len(cl100k.encode_ordinary(udhr[lang]))
        assert int(_cell(page, lang, "qwen3", "tokens")) == len(
            ref_qwen.encode(udhr[lang], add_special_tokens=False).ids
        )
    # a premium computed in the page equals the one CPython computes from the references' counts
    hin = len(ref_qwen.encode(udhr["hin"], add_special_tokens=False).ids)
    eng = len(ref_qwen.encode(udhr["eng"], add_special_tokens=False).ids)
    assert float(_cell(page, "hin", "qwen3", "premium")) == hin / eng
    # Rényi efficiency (alpha 2.5) of cl100k_base's Hindi tokens, as tokenization-scorer computes it
    scorer = pytest.importorskip("tokenization_scorer")
    want = scorer.score([[str(i) for i in cl100k.encode_ordinary(udhr["hin"])]], metric="renyi", power=2.5)
    assert float(_cell(page, "hin", "cl100k_base", "renyi")) == pytest.approx(want, rel=1e-9)
    # the paper's figure beside ours: Petrov et al.'s for cl100k_base, none for Qwen 3 or the trained one
    paper = report_published.petrov_premiums("cl100k_base", "eng")
    assert float(_cell(page, "hin", "cl100k_base", "paper")) == paper["hin_Deva"]
    assert _cell(page, "hin", "qwen3", "paper") == "" and _cell(page, "hin", "my-bpe", "paper") == ""
    assert _cell(page, "div", "cl100k_base", "paper") == ""  # Dhivehi is not in FLORES-200
    bars = page.locator('[data-testid="report-chart"] svg rect[data-tokenizer]').count()
    assert bars == 132 and page.locator('[data-testid="report-chart"] svg line[data-paper]').count() == 42

    # vocabulary anatomy: the trained tokenizer's 300 tokens; cl100k_base's partial UTF-8 tokens
    vocab = page.locator('[data-testid="report-vocab"][data-tokenizer="my-bpe"] h4').text_content()
    assert "300 ordinary tokens" in vocab
    partial = page.get_attribute(
        '[data-testid="report-category"][data-category="partial_utf8"][data-tokenizer="cl100k_base"]', "data-count"
    )
    assert int(partial) == 128 + 645  # 0x80-0xFF + the Magikarp report's UTF-fragment tokens (OLMo 2 = cl100k)
    # a clickable example opens the token's story
    page.locator('[data-testid="report-token"][data-tokenizer="cl100k_base"][data-category="longest"]').first.click()
    page.wait_for_selector('[data-testid="report-story"][data-state="ready"]', timeout=60_000)

    # exports: the CSV has a row per tokenizer and language
    with page.expect_download() as dl:
        page.get_by_test_id("report-export-csv").click()
    csv_text = pathlib.Path(dl.value.path()).read_text(encoding="utf-8")
    assert csv_text.startswith("tokenizer,language,tokens,") and csv_text.count("\n") == 1 + 132
    with page.expect_download() as dl:
        page.get_by_test_id("report-export-svg").click()
    assert pathlib.Path(dl.value.path()).read_text(encoding="utf-8").startswith("<svg")

    # the FLORES-200 subset (fetched when chosen): 204 languages, the subset named under the chart
    page.goto(site_url + "#report?src=flores&tok=cl100k_base&base=eng_Latn")
    page.wait_for_selector('[data-testid="report-baseline"] option[value="shn_Mymr"]', state="attached")
    page.get_by_test_id("report-button").click()
    page.wait_for_selector('#view-report[data-reported="204"]', timeout=240_000)
    flores = json.loads((ROOT / "web/dist/samples/flores200-subset.json").read_text(encoding="utf-8"))
    texts = {row["code"]: row["text"] for row in flores["languages"]}
    rep = report.corpus_report(bytepair.get_encoding("cl100k_base"), texts, baseline="eng_Latn", word_metrics=False)
    assert float(_cell(page, "shn_Mymr", "cl100k_base", "premium")) == rep.language("shn_Mymr").premium
    assert (
        float(_cell(page, "shn_Mymr", "cl100k_base", "paper"))
        == report_published.petrov_premiums("cl100k_base")["shn_Mymr"]
    )
    assert "first 10 sentences" in page.get_by_test_id("report-corpus-note").text_content()


def test_a_sample_corpus_that_does_not_download_is_worded_from_the_catalog(page, site_url):
    """Report and Compare: the UDHR samples answered with HTTP 404 show the locale's sentence
    (error.samples, from the error's type and values), not an English message inside "something
    went wrong"."""
    page.context.route("**/samples/udhr.json", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"{site_url}?lang=fa#report")
    h.wait_ready(page)
    want = h.messages("fa")["error.samples"]["text"].replace("{file}", "samples/udhr.json").replace("{status}", "404")
    page.get_by_test_id("report-button").click()
    h.wait_text(page.locator('[data-testid="report-error"]'), [want])
    page.click('[role="tab"][data-view="compare"]')
    page.click('[data-testid="compare-button"]')
    h.wait_text(page.locator('[data-testid="compare-error"]'), [want])


def test_a_sample_download_cut_by_the_network_is_worded_from_the_catalog(page, site_url):
    """Persian, every request under samples/ aborted (no answer: fetch rejects with the browser's
    own "Failed to fetch"): Report, Compare and Train show the catalog's error.samples.network
    sentence naming the file (fresh tester: "Failed to fetch" in Compare and Train, an English
    sentence in Report); Report's base-language menu, whose list comes with the texts, says why
    it is empty and offers a retry, which fills it once the texts download."""
    messages = h.messages("fa")
    page.context.route("**/samples/**", lambda route: route.abort("failed"))
    page.goto(f"{site_url}?lang=fa#report")
    h.wait_ready(page)

    def want(file):
        return messages["error.samples.network"]["text"].replace("{file}", file)

    udhr = want("samples/udhr.json")
    # the menu: one option saying there is no language, the reason, a retry button in Persian
    h.wait_text(page.get_by_test_id("report-baseline-why"), [udhr])
    assert page.get_by_test_id("report-baseline-note").is_visible()
    menu = page.get_by_test_id("report-baseline")
    assert menu.is_disabled()
    assert menu.locator("option").all_text_contents() == [messages["report.baseline.none"]["text"]]
    assert (
        page.get_by_test_id("report-baseline-retry").text_content().strip() == messages["report.baseline.retry"]["text"]
    )
    page.get_by_test_id("report-button").click()
    h.wait_text(page.get_by_test_id("report-error"), [udhr])

    page.click('[role="tab"][data-view="compare"]')
    page.click('[data-testid="compare-button"]')
    h.wait_text(page.get_by_test_id("compare-error"), [udhr])

    page.click('[role="tab"][data-view="train"]')
    page.click('[data-testid="train-samples"] [data-sample="udhr-mix"]')
    h.wait_text(page.get_by_test_id("train-text-error"), [udhr])
    page.click('[data-testid="train-samples"] [data-sample="hinglish"]')
    h.wait_text(page.get_by_test_id("train-text-error"), [want("samples/hinglish.txt")])
    for testid in ("report-error", "compare-error", "train-text-error", "report-baseline-why"):
        assert "fetch" not in (page.get_by_test_id(testid).text_content() or ""), testid

    # the network back: the retry fills the menu with the samples' languages
    page.context.unroute("**/samples/**")
    page.click('[role="tab"][data-view="report"]')
    page.get_by_test_id("report-baseline-retry").click()
    page.wait_for_selector('[data-testid="report-baseline"] option[value="pes_1"]', state="attached")
    assert page.get_by_test_id("report-baseline-note").is_hidden()
    assert menu.is_enabled()
    udhr_languages = json.loads((h.DIST / "samples" / "udhr.json").read_text(encoding="utf-8"))["languages"]
    assert menu.locator("option").count() == len(udhr_languages)


def test_languages_the_browser_cannot_name_are_named_from_cldr_in_persian(page, site_url):
    """Persian: every UDHR language in Report's base-language menu is named in Persian, also the
    ones Chromium's Intl.DisplayNames has no Persian name for (fresh tester: Inuktitut and Tibetan
    in English); those take CLDR's name (Babel's data, the reference), as do the FLORES subset's
    (``ace_Arab``: the language and its script)."""
    from babel import Locale

    fa, en = Locale("fa"), Locale("en")
    udhr = json.loads((h.DIST / "samples" / "udhr.json").read_text(encoding="utf-8"))["languages"]
    page.goto(f"{site_url}?lang=fa#report")
    h.wait_ready(page)
    page.wait_for_selector('[data-testid="report-baseline"] option[value="ike"]', state="attached")
    shown = dict(
        page.eval_on_selector_all(
            '[data-testid="report-baseline"] option', "(els) => els.map((o) => [o.value, o.textContent])"
        )
    )
    assert shown["ike"] == fa.languages["iu"] != en.languages["iu"]
    assert shown["bod"] == fa.languages["bo"] != en.languages["bo"]
    english = [lang["code"] for lang in udhr if shown[lang["code"]] == lang["name"]]
    assert english == [], english
    page.locator('[data-testid="report-source-flores"]').check()
    page.wait_for_selector('[data-testid="report-baseline"] option[value="ace_Arab"]', state="attached")
    ace = page.text_content('[data-testid="report-baseline"] option[value="ace_Arab"]')
    assert ace == f"{fa.languages['ace']} ({fa.scripts['Arab']})", ace
