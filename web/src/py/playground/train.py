"""The Train view: a ``bytepair.train_iter`` run driven in slices from JavaScript, the
split-pattern check of its form, and rebuilding a run's tokenizer from merges the page
already showed (after the worker was restarted)."""

from __future__ import annotations

import json
import time

import bytepair
from bytepair.app import facts
from bytepair.errors import ArgumentError, OutOfMemoryError
from bytepair.split.pretokenize import check_pattern as _check_pattern
from bytepair.surrogates import utf8

from . import state
from .convert import columns, dumps, exposed, trained_info

#: The columns of a merge batch (``TrainSession.step``), one entry per merge.
MERGE_COLUMNS = (
    "id",
    "left",
    "right",
    "left_text",
    "right_text",
    "token_text",
    "count",
    "n_tokens",
    "left_bytes",
    "right_bytes",
    "token_bytes",
)

#: A merge's tokens are labelled from at most this many bytes (``*_cut`` columns say when a token is
#: longer): late in a run without a pre-tokenizer every token is chapter-long, and labelling and
#: sending them whole took most of the run (issue 19). The page draws a long token's start only and
#: asks for it whole (``export.token_label``) when it is clicked.
LABEL_BYTES = 512

#: The most bytes a run's tokens may total (the vocabulary ``finish`` builds holds each token whole).
#: Without a pre-tokenizer, once every pair is unique the tokens grow along the text and their total
#: grows as the square of the merges (1.5 MB of the KJV: 1 GB at ~52,000 merges, 2.3 GB at 60,000).
#: Past 2 GB of Pyodide's heap its str conversion reads long ASCII strings from the wrong place
#: (``_python2js_ascii`` takes the address as a signed int: ``HEAPU8.subarray(ptr, ...)`` with a
#: negative ``ptr``), and a merge batch reached the page as garbage JSON (issue 19): the run ends
#: before that, keeping the merges that fit, and says why (``step``'s ``limit``: an OutOfMemoryError's
#: record, type ``memory``).
MAX_TOKEN_BYTES = 2**30


@exposed
def check_pattern(pattern: str) -> str:
    """The resolved split pattern (``""`` for ``"none"``); PatternError with a short message otherwise."""
    return _check_pattern(pattern) or ""


def keep(tok: bytepair.Tokenizer, name: str) -> str:
    """Register ``tok`` under ``name``; JSON ``{name, n_vocab, n_merges, pattern, json}`` (``json``: ``to_json()``)."""
    state.trained[name] = tok
    return dumps({**trained_info(tok, name), "json": tok.to_json()})


class TrainSession:
    """One ``bytepair.train_iter`` run driven in slices from JavaScript: ``step(budget_ms)``
    returns the merges of about ``budget_ms`` ms (at least one), ``finish(name)`` builds and
    registers the tokenizer from the merges so far (all, or fewer after Stop)."""

    @exposed
    def __init__(
        self, text: str, vocab_size: int, pattern: str, *, min_frequency: int = 1, normalization: str | None = None
    ) -> None:
        if not text:
            raise ArgumentError("The training text is empty: paste some text or open a .txt file.", field="text")
        facts.check_vocab_size(vocab_size)
        _check_pattern(pattern)
        self.pattern, self.normalization = pattern, normalization or None
        self.total_bytes = len(utf8(text))  # a lone surrogate counts as U+FFFD, as the trainer sees it
        self.target = vocab_size - 256
        self.merges: dict[tuple[int, int], int] = {}
        # each token's first LABEL_BYTES + 3 bytes (enough for its label's head) and its length in bytes:
        # not the whole tokens, which the trainer already holds (late in a long run, GBs of them)
        self.vocab = {i: bytes([i]) for i in range(256)}
        self.lengths = dict.fromkeys(range(256), 1)
        self.token_bytes = 256  # the tokens' lengths summed (MAX_TOKEN_BYTES)
        self.limit: OutOfMemoryError | None = None  # why the run ended before its target, if it did
        self._it = bytepair.train_iter(
            text, vocab_size, pattern=pattern, min_frequency=min_frequency, normalization=self.normalization
        )
        self.done = False
        self.interrupted: KeyboardInterrupt | None = None

    @exposed
    def step(self, budget_ms: float = 50.0) -> str:
        """JSON ``{"events": {"id", "left", "right", "left_text", "right_text", "token_text",
        "count", "n_tokens", "left_bytes", "right_bytes", "token_bytes"}`` (named columns, one
        entry per merge; ``*_bytes``: the tokens' lengths in bytes), ``"done", "interrupted",
        "limit", "total_bytes", "target"}``; ``interrupted``: Stop's KeyboardInterrupt (Pyodide's
        interrupt buffer) ended the run inside this slice (``self.merges`` holds the complete merges
        only); ``limit``: ``None``, or, when the next merge would take the tokens past
        MAX_TOKEN_BYTES, the run ends ``done`` at the last merge that fits (``finish`` keeps those)
        and ``limit`` is the record of an OutOfMemoryError saying so (``{"type": "memory", "field":
        "vocab_size", "message", "needed", "limit", "done"}``: bytes, bytes, merges)."""
        deadline = time.perf_counter() + budget_ms / 1000.0
        rows, vocab, lengths, head = [], self.vocab, self.lengths, bytepair.token_label_head

        def disp(token: bytes) -> str:
            return head(token, LABEL_BYTES)[0]

        try:
            while not self.done:
                ev = next(self._it, None)
                if ev is None:
                    self.done = True
                    break
                size = len(ev.token)
                if self.token_bytes + size > MAX_TOKEN_BYTES:
                    self.limit = _too_large(len(self.merges), self.token_bytes + size)
                    self.done = True
                    self._it.close()  # (the trainer's state freed before finish builds the vocabulary)
                    break
                self.token_bytes += size
                (left, right), self.merges[ev.pair] = ev.pair, ev.id
                vocab[ev.id], lengths[ev.id] = ev.token[: LABEL_BYTES + 3], size
                rows.append(
                    (ev.id, left, right, disp(vocab[left]), disp(vocab[right]), disp(vocab[ev.id]), ev.count)
                    + (ev.n_tokens, lengths[left], lengths[right], lengths[ev.id])
                )
                if time.perf_counter() >= deadline:
                    break
        except KeyboardInterrupt as e:
            # train_iter's generator ended inside the merge. Kept, the exception's traceback keeps the
            # trainer's state alive: close() frees it after the reply (freeing 3 MB of it took Stop ~0.1 s)
            self.interrupted, self.done = e, True
        events = columns(rows, MERGE_COLUMNS)
        out = {
            "events": events,
            "done": self.done,
            "interrupted": self.interrupted is not None,
            "limit": self.limit.to_dict() if self.limit is not None else None,
        }
        return dumps({**out, "total_bytes": self.total_bytes, "target": self.target})

    @exposed
    def finish(self, name: str, limit: int | None = None) -> str:
        """Build and register the tokenizer from the first ``limit`` merges (all when ``None``: Stop
        keeps the merges the page had shown); JSON ``{name, json, n_merges, n_vocab, pattern}``."""
        merges = self.merges if limit is None else dict(list(self.merges.items())[: max(0, int(limit))])
        return keep(
            bytepair.Tokenizer.from_merges(merges, pattern=self.pattern, normalization=self.normalization, name=name),
            name,
        )

    def close(self) -> None:
        """Free the trainer's state (on a large text, freeing it takes a while: called after the reply)."""
        self.interrupted = None
        self._it.close()


def _too_large(merges: int, needed: int) -> OutOfMemoryError:
    """Why a run ended early: its next token would take its tokens past MAX_TOKEN_BYTES."""
    return OutOfMemoryError(
        f"Training ended after {merges:,} merges: the next token would take the tokens past "
        f"{MAX_TOKEN_BYTES / 2**20:,.0f} MB, the most this page can hold. The tokenizer keeps those merges; "
        "for more, train on a shorter text or with a pre-tokenizer.",
        field="vocab_size",
        needed=needed,
        limit=MAX_TOKEN_BYTES,
        done=merges,
    )


@exposed
def from_merges_json(name: str, merges_json: str, pattern: str) -> str:
    """Rebuild a tokenizer from JSON columns ``{"left": [...], "right": [...], "id": [...]}`` (the merges
    the page saw before the worker was restarted); same return as ``TrainSession.finish``."""
    cols = json.loads(merges_json)
    merges = dict(zip(zip(cols["left"], cols["right"]), cols["id"]))
    return keep(bytepair.Tokenizer.from_merges(merges, pattern=pattern, name=name), name)
