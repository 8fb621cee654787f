"""Counting on Dask partitions equals counting the whole text (and training from it equals training on it).

References: the slow whole-text oracle of ``test_corpus.py`` (``regex.findall``
after ``unicodedata.normalize``, cut at special tokens), and ``bytepair.train``
on the whole text in memory (itself checked against minbpe-style oracles in
``test_train_parity.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

dask = pytest.importorskip("dask")
pytest.importorskip("regex")
db = pytest.importorskip("dask.bag")

import bytepair
from bytepair import cluster_count, corpus
from bytepair.errors import ArgumentError
from tests.hypothesis_profiles import examples
from tests.reference.corpus_oracle import AWKWARD, oracle_counts

SPECIALS = ["<|endoftext|>", "<|e|>"]
# pieces, "\r\n", multi-byte characters, specials, combining marks (NFC joins them)
UNIT = "naïve 日本語 words\r\n  \r\nmore   te<|endoftext|>xt😀x Cafe\u0301 ﬁne<|e|>  \r\n"


def _files(tmp_path, texts: list[str]) -> list[str]:
    paths = []
    for k, t in enumerate(texts):
        p = tmp_path / f"part{k}.txt"
        p.write_bytes(t.encode())
        paths.append(str(p))
    return paths


def _awkward_edges(data: bytes, step: int) -> tuple[bool, bool]:
    """Whether nominal edges at multiples of ``step`` fall inside a UTF-8 character / between CR and LF."""
    edges = range(step, len(data), step)
    return any(0x80 <= data[b] < 0xC0 for b in edges), any(data[b - 1 : b + 1] == b"\r\n" for b in edges)


@pytest.mark.parametrize("form", [None, "NFC"])
@pytest.mark.parametrize("step", [7, 62, 317])
def test_files_equal_whole_text(tmp_path, form, step):
    texts = [UNIT * 3, "x", UNIT[5:] * 2, "", AWKWARD]
    paths = _files(tmp_path, texts)
    data = "".join(texts).encode()
    assert _awkward_edges(data, step) == (True, True)
    with dask.config.set(scheduler="synchronous"):
        got = cluster_count.count_files_dask(paths, special_tokens=SPECIALS, normalization=form, partition_bytes=step)
    want = oracle_counts("".join(texts), "cl100k_base", SPECIALS, form)
    assert list(got.items()) == list(want.items())


@pytest.mark.parametrize("chunk", [5, 50, 4000])
@pytest.mark.parametrize("form", [None, "NFC"])
def test_partitions_scanned_in_chunks(tmp_path, monkeypatch, chunk, form):
    # a worker scans its partition in chunks of CHUNK_CHARS, each from where the last one's search stopped
    monkeypatch.setattr(cluster_count, "CHUNK_CHARS", chunk)
    text = UNIT * 20 + "a " + " " * 5000 + "b" + "x" * 4500 + " end\r\n" + AWKWARD * 3
    paths = _files(tmp_path, [text[:3001], text[3001:]])
    with dask.config.set(scheduler="synchronous"):
        got = cluster_count.count_files_dask(paths, special_tokens=SPECIALS, normalization=form, partition_bytes=6007)
    assert list(got.items()) == list(oracle_counts(text, "cl100k_base", SPECIALS, form).items())


@pytest.mark.parametrize("pattern", ["gpt2", "o200k_base", r"\w+|\s"])
def test_files_long_pieces_past_the_lookahead(tmp_path, pattern):
    text = "a " + " " * 10000 + "b" + "x" * 9000 + " end\r\n" + UNIT
    paths = _files(tmp_path, [text[:7000], text[7000:]])
    with dask.config.set(scheduler="synchronous"):
        got = cluster_count.count_files_dask(paths, pattern=pattern, partition_bytes=3000)
    assert list(got.items()) == list(oracle_counts(text, pattern).items())


@pytest.mark.parametrize("form", [None, "NFKC"])
@pytest.mark.parametrize("nparts", [1, 3, 17])
def test_bag_equal_whole_text(form, nparts):
    items = [UNIT[k : k + 7] for k in range(0, len(UNIT), 7)] * 5 + ["", "\u0301\u0301", "\n"]
    bag = db.from_sequence(items, npartitions=nparts)
    with dask.config.set(scheduler="synchronous"):
        got = cluster_count.count_texts_dask(bag, special_tokens=SPECIALS, normalization=form)
    want = oracle_counts("".join(items), "cl100k_base", SPECIALS, form)
    assert list(got.items()) == list(want.items())


@pytest.mark.parametrize("sizes", [[1, 1, 1], [0, 5, 0, 2, 40], [3, 200]])
def test_engine_neutral_steps_as_documented_for_spark(sizes):
    # docs/DISTRIBUTED.md's Spark recipe, with plain lists as the partitions
    items = [UNIT[k : k + 5] for k in range(0, len(UNIT), 5)] * 5
    parts, k = [], 0
    for n in sizes:
        parts.append(items[k : k + n])
        k += n
    parts[-1] += items[k:]
    opts = cluster_count.CountOptions.make(pattern="cl100k_base", special_tokens=SPECIALS, normalization="NFC")
    summaries = [cluster_count.text_summary(p, ctx_chars=opts.ctx_chars) for p in parts]
    jobs = cluster_count.plan_text_partitions(summaries, opts)
    scans = [cluster_count.scan_text_job(opts, [parts[j.index]], [j]) for j in jobs]

    def rescan(keys, p):
        return cluster_count.scan_text_job(opts, [parts[j.index] for j in keys], keys, p)

    got = corpus.stitch_counts(zip(jobs, scans), rescan)
    assert list(got.items()) == list(oracle_counts("".join(items), "cl100k_base", SPECIALS, "NFC").items())


@pytest.mark.parametrize("form", [None, "NFC"])
def test_partitions_longer_than_what_the_driver_sees(form):
    # partitions past HEAD_CHARS: the driver knows only their heads and tails;
    # the second starts with a combining mark (NFC joins it to the "e" before)
    big = AWKWARD * 600
    assert len(big) > cluster_count.HEAD_CHARS + 300
    parts = [[big + "Cafe"], ["\u0301 " + big], ["\r", "\n" + big[:999]]]
    opts = cluster_count.CountOptions.make(pattern="cl100k_base", normalization=form)
    got = _count_lists(parts, opts)
    text = "".join("".join(p) for p in parts)
    assert list(got.items()) == list(oracle_counts(text, "cl100k_base", (), form).items())


def _count_lists(parts, opts):
    jobs = cluster_count.plan_text_partitions(
        [cluster_count.text_summary(p, ctx_chars=opts.ctx_chars) for p in parts], opts
    )
    scans = [cluster_count.scan_text_job(opts, [parts[j.index]], [j]) for j in jobs]

    def rescan(keys, p):
        return cluster_count.scan_text_job(opts, [parts[j.index] for j in keys], keys, p)

    return corpus.stitch_counts(zip(jobs, scans), rescan)


@settings(max_examples=examples(40))
@given(
    parts=st.lists(
        st.lists(
            st.sampled_from(
                ["ab", " ", "  ", "\r", "\n", "é", "e", "\u0301", "中", "😀", "<|e|>", "<|", "e|>", "'s", "1"]
            )
        ),
        min_size=1,
        max_size=6,
    ),
    form=st.sampled_from([None, "NFC", "NFKC"]),
    pattern=st.sampled_from(["cl100k_base", "gpt2", "o200k_base"]),
)
def test_hypothesis_partitions(parts, form, pattern):
    opts = cluster_count.CountOptions.make(pattern=pattern, special_tokens=["<|e|>"], normalization=form)
    got = _count_lists(parts, opts)
    text = "".join("".join(p) for p in parts)
    assert list(got.items()) == list(oracle_counts(text, pattern, ["<|e|>"], form).items())


def test_dataframe_column_equal_whole_text():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    items = [UNIT[k : k + 11] for k in range(0, len(UNIT), 11)] * 4
    df = dd.from_pandas(pd.DataFrame({"text": items, "n": range(len(items))}), npartitions=5)
    with dask.config.set(scheduler="synchronous"):
        got = cluster_count.count_texts_dask(df["text"], special_tokens=SPECIALS)
        with pytest.raises(ArgumentError) as e:
            cluster_count.count_texts_dask(df, special_tokens=SPECIALS)
    assert e.value.field == "texts"
    assert list(got.items()) == list(oracle_counts("".join(items), "cl100k_base", SPECIALS).items())


def test_invalid_utf8_is_reported_from_the_worker(tmp_path):
    good = tmp_path / "a.txt"
    good.write_bytes(b"hello\n" * 100)
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"ok\nline two \xff here\n")
    with dask.config.set(scheduler="synchronous"), pytest.raises(corpus.InputDecodeError) as e:
        cluster_count.count_files_dask([str(good), str(bad)], partition_bytes=64)
    assert (e.value.path, e.value.line, e.value.byte_offset) == (str(bad), 2, 12)


def test_pattern_none_is_refused():
    with pytest.raises(ArgumentError) as e:
        cluster_count.CountOptions.make(pattern="none")
    assert e.value.field == "pattern"


def test_local_cluster_two_processes_trains_as_in_memory(tmp_path):
    distributed = pytest.importorskip("distributed")
    texts = [UNIT * 40, AWKWARD * 5, UNIT[3:] * 30]
    paths = _files(tmp_path, texts)
    step = 1026
    assert _awkward_edges("".join(texts).encode(), step) == (True, True)
    with (
        distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster),
    ):
        counts = cluster_count.count_files_dask(paths, special_tokens=SPECIALS, partition_bytes=step)
    got = corpus.train_from_counts(counts, 600, special_tokens=SPECIALS, min_frequency=2)
    want = bytepair.train("".join(texts), 600, special_tokens=SPECIALS, min_frequency=2)
    assert len(want.merges) > 100
    assert list(got.merges.items()) == list(want.merges.items())
