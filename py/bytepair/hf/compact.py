"""The compact form of an open model: what the site ships as ``models/<name>.bpv`` and loads quickly.

:func:`to_compact` writes an :class:`bytepair.hf.tokenizer.HFTokenizer` in bytepair's one
compact vocabulary format (:mod:`bytepair.formats.vocab_file`, ``kind="hf"``): the vocabulary
and merges in buckets keyed by each entry's rarest trigram (:mod:`bytepair.hf.lazy`), the added
tokens as columns (:mod:`bytepair.hf.added`), everything else of the ``tokenizer.json`` as JSON.
:func:`from_compact` reads it back into a tokenizer with the same ids that builds only the
table entries a text needs.

It uses only the tokenizer's compact-format interface (documented on the class):
:attr:`~HFTokenizer.file_settings`, :attr:`~HFTokenizer.model_vocab`,
:meth:`~HFTokenizer.merge_ranks`, :attr:`~HFTokenizer.model_options`,
:attr:`~HFTokenizer.added_columns`, :attr:`~HFTokenizer.added_tokens`,
:meth:`~HFTokenizer.glued_before_space`, :meth:`~HFTokenizer.load_all_tables`, and
:meth:`HFTokenizer.from_parts` to build one.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizerFileError
from ..formats.vocab_file import read_vocab_file, text_separator, write_vocab_file
from . import added as hf_added
from . import lazy as hf_lazy
from .tokenizer import HFTokenizer

__all__ = ["from_compact", "to_compact"]


def to_compact(tok: HFTokenizer) -> bytes:
    """``tok`` in bytepair's compact vocabulary format (:mod:`bytepair.formats.vocab_file`,
    ``kind="hf"``; *bytes*, every section deflated, so no gzip is needed around
    it): what the site ships as ``models/<name>.bpv``, quick to load:
    :func:`from_compact` builds only the table entries a text needs, inflating
    only the blocks they are in (:mod:`bytepair.hf.lazy`).

    Sections: the vocabulary and the merges in buckets (``vocab_*``,
    ``merge_*``, ``id_bucket``: see :mod:`bytepair.hf.lazy`). Models with a
    ``continuing_subword_prefix`` or ``end_of_word_suffix`` (whose merges are
    not substrings of the text) are written whole instead: ``vocab`` (text:
    the vocabulary's strings in file order), ``ids`` (u32; only when they are
    not ``0..n-1``), ``merge_keys`` (text: each merge as ``left + merge_sep +
    right``, in rank order), ``ranks`` (u32; only when the ranks are not
    ``0..m-1``). The added tokens, when columns give them back exactly: ``added_content``,
    ``added_ids``, ``added_flags`` (:mod:`bytepair.hf.added`; else they stay in ``data``).
    ``meta``: ``data`` (the rest of the ``tokenizer.json``),
    ``config`` (without its ``added_tokens_decoder`` when that is the added tokens'
    columns again: then ``config_added_tokens_decoder: true``, and the tokenizer's
    ``config`` rebuilds it when read), ``name``, ``merge_sep``, ``lazy`` (bucketed files), and for
    SentencePiece-style vocabularies ``cut_glued`` (the characters found before
    ``▁`` inside tokens: where long pieces may be cut; derived, stored so the
    first count need not scan the vocabulary).
    :func:`from_compact` gives back a tokenizer with the same ids. A compact model's tables
    are loaded whole first (:meth:`HFTokenizer.load_all_tables`).

    Raises:
        TokenizerFileError: no separator character is free (a vocabulary that
            uses all of them).
    """
    tok.load_all_tables()
    ranks = tok.merge_ranks()
    vocab = tok.model_vocab
    options = tok.model_options
    rest = tok.file_settings
    config = tok.config
    added = hf_added.to_columns(rest.get("added_tokens"))
    cols = tok.added_columns
    if cols is not None:
        added = dict(zip(("added_content", "added_ids", "added_flags"), [list(c) for c in cols]))
    meta: dict[str, Any] = {"data": rest, "config": config, "name": tok.name, "merge_sep": options["separator"]}
    if added is not None:
        rest.pop("added_tokens", None)
        if config.get("added_tokens_decoder") == hf_added.decoder(*added.values()):
            meta["config"] = {k: v for k, v in config.items() if k != "added_tokens_decoder"}
            meta["config_added_tokens_decoder"] = True
    glued = tok.glued_before_space()
    if glued is not None:
        meta["cut_glued"] = glued
    try:
        if options["continuing_subword_prefix"] or options["end_of_word_suffix"]:
            ids = list(vocab.values())
            rank_values = list(ranks.values())
            sections: dict[str, Any] = {"vocab": list(vocab)}
            if ids != list(range(len(ids))):
                sections["ids"] = ids
            sections["merge_keys"] = list(ranks)
            if rank_values != list(range(len(rank_values))):
                sections["ranks"] = rank_values
        else:
            special = [t["content"] for t in tok.added_tokens]
            sections, meta["lazy"] = _bucketed(vocab, ranks, options, special)
        sections.update(added or {})
        deflate: dict[str, Any] = dict.fromkeys(sections, ())  # one block each; the bucketed tables in many
        if "lazy" in meta:
            for t in ("vocab", "merge"):
                deflate[f"{t}_text"] = hf_lazy.block_cuts(sections[f"{t}_offsets"])
                deflate[f"{t}_values"] = hf_lazy.block_cuts(sections[f"{t}_starts"], scale=4)
        return write_vocab_file(sections, kind="hf", meta=meta, deflate=deflate)
    except ValueError as e:
        raise TokenizerFileError(f"cannot write the compact form: {e}", where="model.vocab", component="BPE") from e


def _bucketed(
    vocab: dict[str, int], ranks: dict[str, int], options: dict[str, Any], special: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The sections and ``lazy`` meta of a bucketed compact file (see :mod:`bytepair.hf.lazy`).
    ``options``: the tokenizer's :attr:`~HFTokenizer.model_options`; ``special``: the added
    tokens' contents (bucket 0, with the ``unk_token``).

    Raises:
        ValueError: no separator is free for a table.
    """
    sep, unk = options["separator"], options["unk_token"]
    tokens, keys = list(vocab), list(ranks)
    texts = tokens + [k.replace(sep, "") for k in keys]  # a merge's text: its result
    if unk is not None:
        special = [*special, unk]
    buckets = hf_lazy.file_entries(texts, special=special, unk=unk, byte_fallback=options["byte_fallback"])
    n = hf_lazy.N_BUCKETS
    sections: dict[str, Any] = {}
    lazy: dict[str, Any] = {"buckets": n}

    def table(name: str, items: list[str], values: list[int], where: list[int]) -> str:
        order = sorted(range(len(items)), key=lambda i: (where[i], values[i]))
        items = [items[i] for i in order]
        tsep = text_separator(items)
        step = len(tsep.encode("utf-8"))
        starts, offsets = [0] * (n + 2), [0] * (n + 2)
        for i in order:  # counts and sizes per bucket, then running sums
            starts[where[i] + 1] += 1
        sizes = [0] * (n + 2)
        for i, s in zip(order, items):
            sizes[where[i] + 1] += len(s.encode("utf-8", "surrogatepass")) + step
        for b in range(1, n + 2):
            starts[b] += starts[b - 1]
            offsets[b] = offsets[b - 1] + sizes[b]
        if items:
            offsets[n + 1] -= step  # no separator after the last entry
        sections[f"{name}_text"] = items
        ordered = [values[i] for i in order]
        firsts = set(starts[: n + 1])  # a bucket's first entry keeps its value; the others: the difference
        sections[f"{name}_values"] = [v if k in firsts else v - ordered[k - 1] for k, v in enumerate(ordered)]
        sections[f"{name}_starts"] = starts
        sections[f"{name}_offsets"] = offsets
        return tsep

    ids = list(vocab.values())
    lazy["vocab_sep"] = table("vocab", tokens, ids, buckets[: len(tokens)])
    lazy["merge_sep_char"] = table("merge", keys, list(ranks.values()), buckets[len(tokens) :])
    lazy["n_tokens"] = len(tokens)
    lazy["max_id"] = max(ids, default=-1)
    return sections, lazy


def from_compact(data: bytes) -> HFTokenizer:
    """Load what :func:`to_compact` wrote (*bytes*, gzip-compressed or not).

    A bucketed file (:mod:`bytepair.hf.lazy`) loads only the entries that need
    no text (bucket 0); each text's buckets load as it is encoded, and
    everything loads for a text over 50,000 characters, once a quarter of the
    buckets has loaded, or when a method needs
    the whole tables (:func:`to_compact`).

    Raises:
        TokenizerFileError: not a compact (``.bpv``, ``kind="hf"``) tokenizer,
            another format version, or damaged.
    """
    lazy = None
    try:
        f = read_vocab_file(data, kind="hf", raw=("vocab_text", "merge_text", "vocab_values", "merge_values"))
        sec, meta = f.sections, f.meta
        id_to_token: dict[int, str] | list[str] | None = None
        if "lazy" in meta:
            lazy = hf_lazy.LazyTables(sec, meta["lazy"])
            vocab, ranks, n_merges = lazy.vocab, lazy.ranks, lazy.n_merges
            id_to_token = lazy.id_to_token
        else:
            tokens = sec["vocab"]
            keys = sec["merge_keys"]
            ids = sec["ids"] if "ids" in sec else range(len(tokens))
            vocab = dict(zip(tokens, ids))
            ranks = dict(zip(keys, sec["ranks"] if "ranks" in sec else range(len(keys))))
            n_merges = len(keys)
            if len(vocab) != len(tokens) or len(ranks) != len(keys):
                raise ValueError("repeated vocabulary entries or merges")
            if "ids" not in sec:
                id_to_token = tokens  # the file's token list is the id -> token table
        cols = None
        if "added_content" in sec:
            cols = (sec["added_content"], sec["added_ids"], sec["added_flags"])
            if not len(cols[0]) == len(cols[1]) == len(cols[2]):
                raise ValueError("the added-token columns differ in length")
        glued = meta.get("cut_glued")
        return HFTokenizer.from_parts(
            meta["data"],
            vocab=vocab,
            ranks=ranks,
            merge_sep=meta["merge_sep"],
            n_merges=n_merges,
            config=meta["config"],
            name=meta["name"],
            tables=lazy,
            id_to_token=id_to_token,
            added_columns=cols,
            config_added_tokens_decoder=meta.get("config_added_tokens_decoder") is True,
            cut_glued=glued if isinstance(glued, str) else None,
        )
    except (KeyError, ValueError, TypeError) as e:
        if isinstance(e, TokenizerFileError):
            raise
        raise TokenizerFileError(f"not a compact bytepair tokenizer, or a damaged one: {e}", where=None) from e
