"""The slow textbook oracle: Sennrich, Haddow & Birch (2016), Algorithm 1 taken literally.

A word is one string of space-separated symbols, pairs are counted on ``str.split()``, and a
merge is ``re.sub`` of ``(?<!\\S)left right(?!\\S)`` by ``leftright``; ties are resolved from explicit
first positions ``(word index, symbol index)`` or by sorting the tied pairs. A formulation
different from ``bytepair.teach.textbook``, which tests/core/test_textbook.py checks against it (and the
lesson tests use for the Hinglish course's merge table). Stdlib only: it also runs inside Pyodide.
"""

from __future__ import annotations

import re

PAPER_VOCAB = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
#: Algorithm 1's first merges on PAPER_VOCAB (pair, count).
PAPER_FIRST_MERGES = [
    (("e", "s"), 9),
    (("es", "t"), 9),
    (("est", "</w>"), 9),
    (("l", "o"), 7),
    (("lo", "w"), 7),
]


def _bigram(pair):
    return re.compile(r"(?<!\S)" + re.escape(pair[0] + " " + pair[1]) + r"(?!\S)")


def oracle_learn(word_counts, n_merges, tie_break):
    """Algorithm 1 on space-joined strings; returns one dict per merge."""
    words = list(word_counts)
    counts = [word_counts[w] for w in words]
    strings = [" ".join(list(w) + ["</w>"]) for w in words]
    vocab = []
    for s in strings:
        for sym in s.split():
            if sym not in vocab:
                vocab.append(sym)
    out = []
    for k in range(n_merges):
        pairs, first = {}, {}
        for wi, (s, c) in enumerate(zip(strings, counts)):
            syms = s.split()
            for i in range(len(syms) - 1):
                p = (syms[i], syms[i + 1])
                pairs[p] = pairs.get(p, 0) + c
                first.setdefault(p, (wi, i))  # words in order, left to right: the first one stays
        if not pairs:
            break
        if tie_break == "first":
            table = sorted(pairs, key=lambda p: (-pairs[p], first[p]))
        else:
            table = sorted(pairs, key=lambda p: (-pairs[p], p))
        best = table[0]
        ties = [p for p in table[1:] if pairs[p] == pairs[best]]
        merged = best[0] + best[1]
        regex = _bigram(best)
        changed = []
        for wi, s in enumerate(strings):
            starts = [m.start() for m in regex.finditer(s)]
            if starts:
                # symbol index of each match in the old string, minus the merges left of it
                changed.append((wi, words[wi], [s[:st].count(" ") - j for j, st in enumerate(starts)]))
                strings[wi] = regex.sub(merged.replace("\\", "\\\\"), s)
        if merged not in vocab:
            vocab.append(merged)
        out.append(
            {
                "index": k,
                "pair": best,
                "merged": merged,
                "count": pairs[best],
                "ties": ties,
                "pair_counts": [(p, pairs[p]) for p in table],
                "segmentation": [(w, c, s.split()) for w, c, s in zip(words, counts, strings)],
                "changed_words": changed,
                "vocab": list(vocab),
                "n_symbols": sum(len(s.split()) * c for s, c in zip(strings, counts)),
            }
        )
    return out


def oracle_apply(word, merges):
    """Each merge in order as a string substitution; the rules that change the word."""
    s = " ".join(list(word) + ["</w>"])
    fired = []
    for k, pair in enumerate(merges):
        regex = _bigram(pair)
        starts = [m.start() for m in regex.finditer(s)]
        if starts:
            positions = [s[:st].count(" ") - j for j, st in enumerate(starts)]
            s = regex.sub((pair[0] + pair[1]).replace("\\", "\\\\"), s)
            fired.append((k, tuple(pair), s.split(), positions))
    return fired
