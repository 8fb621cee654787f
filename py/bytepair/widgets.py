"""Live notebook widgets (anywidget): :class:`Train` learns merges in the kernel and shows them as they come;
:class:`Tokenize` shows a text's coloured tokens as it is typed.

``pip install "bytepair[notebook]"`` installs `anywidget <https://anywidget.dev>`_, which runs
the same widget in Jupyter(Lab), Colab, VS Code and marimo. ``anywidget`` is imported when a
widget class is first used (``bytepair.widgets.Train``), not when this module is.

``Train(text, vocab_size=512, pattern="cl100k_base")`` shows the text's size, the options,
a Train and a Stop button, the compression so far (UTF-8 bytes per token, from
:class:`bytepair.MergeEvent` ``n_bytes / n_tokens``) as a number and a curve, and the
latest merges. Training runs in a thread of the kernel (:func:`bytepair.train_iter`, so
the kernel keeps answering, and Stop is heard between two merges); the merges reach the
page in batches (traitlets ``n_merges`` and ``merges``, the newest :data:`SHOWN_MERGES`,
synced at most every :data:`BATCH_SECONDS`), so a fast run sends a few messages a second
of bounded size, not one per merge nor the whole table each time (all rows: ``w.all_merges``). From Python: ``w.start()``,
``w.stop()``, ``w.wait()``, then ``w.tokenizer`` (a :class:`bytepair.Tokenizer`).

``Tokenize(text, tokenizer="cl100k_base")``: a text box, the tokenizer list (the listed
encodings; any bytepair tokenizer object instead), the count and the tokens, drawn from
:func:`token_rows` (the chips of :func:`bytepair.show`, as data).

``Compare(texts, tokenizers=("gpt2", "o200k_base"))``: one row per text, one column per tokenizer,
token counts and UTF-8 bytes per token, counted in the kernel (:func:`compare_rows`).

The front ends are ``bytepair/static/train.js``, ``tokenize.js`` and ``compare.js`` (plain DOM, text only
through ``textContent``; no request to any host). They are their own small views, not the
playground's: those are built on the page's store and worker (``web/src/views/``).
"""

from __future__ import annotations

import pathlib
import threading
import time
from typing import Any

from .app.facts import PRETOKENIZERS, check_vocab_size
from .decoding import token_to_label
from .errors import ArgumentError, BytepairError
from .notebook import TOKEN_COLORS, token_parts, token_title
from .registry import encoding_info, get_encoding, list_encoding_names
from .surrogates import fix_surrogates
from .tokenizer import Tokenizer
from .trainer import check_train_args, tokenizer_from_merges, train_iter

__all__ = [
    "BATCH_SECONDS",
    "LABEL_CHARS",
    "SHOWN_MERGES",
    "STATIC",
    "Compare",  # noqa: F822 (Compare, Tokenize, Train: module __getattr__, built on first use)
    "Tokenize",  # noqa: F822
    "Train",  # noqa: F822
    "compare_rows",
    "merge_row",
    "token_rows",
]

#: Where the widgets' ES modules are (package data).
STATIC = pathlib.Path(__file__).parent / "static"
#: The longest a merge's token label is sent (*characters*); longer tokens are cut, with their length.
LABEL_CHARS = 40
#: Seconds between two syncs of the merges while training runs.
BATCH_SECONDS = 0.2
#: Merges sent to the page (the newest; all stay in the kernel: ``Train.all_merges``), so a sync's size stays bounded.
SHOWN_MERGES = 200
#: Points of the compression curve kept (the curve is thinned to about this many).
CURVE_POINTS = 400


def merge_row(event: Any) -> list:
    """One merge as the widget's table shows it: ``[id, left_id, right_id, label, n_bytes, count]``.

    ``label``: :func:`bytepair.token_to_label` of the new token (invisible characters named,
    fragments as hex), cut to :data:`LABEL_CHARS` characters with ``"…"`` when longer; ``n_bytes``:
    the token's length in *bytes*. ``event``: a :class:`bytepair.MergeEvent`.
    """
    label = token_to_label(event.token)
    if len(label) > LABEL_CHARS:
        label = label[: LABEL_CHARS - 1] + "…"
    return [event.id, event.pair[0], event.pair[1], label, len(event.token), event.count]


_CLASSES: dict[str, type] = {}


def _train_class(aw: Any, traitlets: Any) -> type:
    """Build :class:`Train` on ``anywidget`` and ``traitlets`` (once: :func:`_widget_class`)."""

    class Train(aw.AnyWidget):  # a base known at run time only (anywidget is optional)
        """Train a byte-level BPE tokenizer live in a notebook (see :mod:`bytepair.widgets`).

        Args (keyword-only after ``text``):
            text: the training text (*characters*).
            vocab_size: final vocabulary size (*tokens*: 256 bytes + merges),
                :data:`bytepair.app.facts.MIN_VOCAB_SIZE`..:data:`bytepair.app.facts.MAX_VOCAB_SIZE`.
            pattern: pre-tokenizer, as :func:`bytepair.train` (``"none"``, ``"gpt2"``,
                ``"cl100k_base"``, ``"o200k_base"`` or a regex).
            autostart: start training at once.

        Raises:
            ArgumentError (``field`` names the option): a bad vocab size, a text that is no ``str``;
            PatternError: a pattern that is neither a name nor a valid regex.
        """

        _esm = STATIC / "train.js"

        text = traitlets.Unicode("").tag(sync=True)
        vocab_size = traitlets.Int(512).tag(sync=True)
        pattern = traitlets.Unicode("cl100k_base").tag(sync=True)
        pretokenizers = traitlets.List().tag(sync=True)
        n_bytes = traitlets.Int(0).tag(sync=True)
        status = traitlets.Unicode("idle").tag(sync=True)  # idle, training, stopped, done, error
        error = traitlets.Dict().tag(sync=True)  # BytepairError.to_dict() when status == "error"
        merges = traitlets.List().tag(sync=True)  # the newest SHOWN_MERGES merge_row(...) rows, in order
        n_merges = traitlets.Int(0).tag(sync=True)  # merges learned so far
        curve = traitlets.List().tag(sync=True)  # [merges so far, bytes per token]
        ratio = traitlets.Float(1.0).tag(sync=True)  # bytes per token now
        colors = traitlets.List(list(TOKEN_COLORS)).tag(sync=True)

        def __init__(
            self, text: str = "", *, vocab_size: int = 512, pattern: str = "cl100k_base", autostart: bool = False
        ) -> None:
            if not isinstance(text, str):
                raise ArgumentError(f"text must be a str, got {type(text).__name__}", field="text")
            check_vocab_size(vocab_size)
            check_train_args(vocab_size, pattern=pattern)
            super().__init__(
                text=text,
                vocab_size=vocab_size,
                pattern=pattern,
                pretokenizers=[[v, label] for v, label in PRETOKENIZERS if v != "custom"],
            )
            self.n_bytes = len(self.text.encode("utf-8"))
            self.tokenizer: Tokenizer | None = None
            self.all_merges: list[list] = []  # every merge_row(...) of the last run, in order
            self._stop = threading.Event()
            self._thread: threading.Thread | None = None
            self.on_msg(self._on_message)
            self.observe(self._on_text, names="text")
            if autostart:
                self.start()

        @traitlets.validate("text")
        def _valid_text(self, proposal: dict) -> str:
            # lone surrogates cannot travel to the page (UTF-8 JSON): U+FFFD, as encoding and training treat them
            return fix_surrogates(proposal["value"])

        def _on_text(self, change: dict) -> None:
            self.n_bytes = len(change["new"].encode("utf-8"))

        def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
            self.handle_message(content)

        def handle_message(self, content: Any) -> None:
            """What a message from the widget's page does: ``{"type": "train"}`` starts training
            (:meth:`start`), ``{"type": "stop"}`` stops it (:meth:`stop`); anything else is ignored."""
            kind = content.get("type") if isinstance(content, dict) else None
            if kind == "train":
                self.start()
            elif kind == "stop":
                self.stop()

        @property
        def running(self) -> bool:
            """True while the training thread runs."""
            return self._thread is not None and self._thread.is_alive()

        def start(self) -> None:
            """Start training in a thread with the current options (nothing when already running).
            A bad option sets ``status = "error"`` and ``error`` (``BytepairError.to_dict()``)."""
            if self.running:
                return
            self._stop.clear()
            self.merges, self.curve, self.ratio, self.error, self.tokenizer = [], [], 1.0, {}, None
            self.n_merges, self.all_merges = 0, []
            self.status = "training"
            self._thread = threading.Thread(target=self._run, name="bytepair-train", daemon=True)
            self._thread.start()

        def stop(self) -> None:
            """Ask the training to stop after the current merge (the merges so far are kept)."""
            self._stop.set()

        def wait(self, timeout: float | None = None) -> bool:
            """Wait until training ends (*seconds*; ``None``: no limit); True when it has."""
            if self._thread is not None:
                self._thread.join(timeout)
            return not self.running

        def _sync(self, rows: list[list], curve: list[list]) -> None:
            with self.hold_sync():  # one message for the three
                self.merges, self.curve, self.n_merges = rows[-SHOWN_MERGES:], list(curve), len(rows)

        def _run(self) -> None:
            text, vocab_size, pattern = self.text, self.vocab_size, self.pattern
            rows: list[list] = self.all_merges
            curve: list[list] = []
            merges: dict[tuple[int, int], int] = {}
            last_sync = time.monotonic()
            step = 1
            try:
                check_vocab_size(vocab_size)
                for ev in train_iter(text, vocab_size, pattern=pattern):
                    merges[ev.pair] = ev.id
                    rows.append(merge_row(ev))
                    ratio = ev.n_bytes / ev.n_tokens if ev.n_tokens else 1.0
                    if len(rows) % step == 0:
                        curve.append([len(rows), round(ratio, 4)])
                        if len(curve) > CURVE_POINTS:  # thin: keep every other point, sample half as often
                            curve = curve[1::2]
                            step *= 2
                    if time.monotonic() - last_sync >= BATCH_SECONDS:
                        self._sync(rows, curve)
                        self.ratio = ratio
                        last_sync = time.monotonic()
                    if self._stop.is_set():
                        break
                if rows and (not curve or curve[-1][0] != len(rows)):
                    curve.append([len(rows), round(ratio, 4)])
                self.tokenizer = tokenizer_from_merges(
                    merges, pattern=pattern, special_tokens=(), normalization=None, name="trained"
                )
                self._sync(rows, curve)
                if rows:
                    self.ratio = ratio
                self.status = "stopped" if self._stop.is_set() else "done"
            except BytepairError as e:
                self.error = e.to_dict()
                self.status = "error"

    return Train


def token_rows(tokenizer: Any, text: str, *, limit: int) -> tuple[list[list], int]:
    """The first ``limit`` tokens of ``text`` as the Tokenize widget draws them, and the total count.

    Rows: ``[id, title, special, parts]`` with :func:`bytepair.notebook.token_title` and
    :func:`bytepair.notebook.token_parts` (``[[kind, text, title], ...]``). Special-token text is
    encoded as ordinary text (a ``Tokenizer``'s ``disallowed_special=()``).
    """
    options = {"disallowed_special": ()} if tokenizer.special_tokens_in_text == "switch" else {}
    spans = tokenizer.encode_with_spans(text, **options)
    rows = [[s.id, token_title(s), bool(s.special), [list(p) for p in token_parts(s.token)]] for s in spans[:limit]]
    return rows, len(spans)


def _tokenize_class(aw: Any, traitlets: Any) -> type:
    """Build :class:`Tokenize` on ``anywidget`` and ``traitlets`` (once: :func:`_widget_class`)."""

    class Tokenize(aw.AnyWidget):  # a base known at run time only (anywidget is optional)
        """Type a text, see its tokens (the coloured tokens of :func:`bytepair.show`), live.

        Args:
            text: the text (*characters*).
            tokenizer: an encoding name (``"cl100k_base"``: the page's list) or any bytepair
                tokenizer (trained, open model); then the list is replaced by its name.
            limit: tokens drawn (*tokens*; the count covers all).

        Raises:
            ArgumentError: a text that is no ``str``; UnknownNameError: an unknown encoding name.
        """

        _esm = STATIC / "tokenize.js"

        text = traitlets.Unicode("").tag(sync=True)
        encoding = traitlets.Unicode("cl100k_base").tag(sync=True)
        encodings = traitlets.List().tag(sync=True)  # [[name, label]]; empty: a tokenizer object
        tokens = traitlets.List().tag(sync=True)  # token_rows(...)
        count = traitlets.Int(0).tag(sync=True)
        n_chars = traitlets.Int(0).tag(sync=True)
        error = traitlets.Dict().tag(sync=True)
        colors = traitlets.List(list(TOKEN_COLORS)).tag(sync=True)

        def __init__(self, text: str = "", *, tokenizer: Any = "cl100k_base", limit: int = 2000) -> None:
            if not isinstance(text, str):
                raise ArgumentError(f"text must be a str, got {type(text).__name__}", field="text")
            self._limit = limit
            if isinstance(tokenizer, str):
                get_encoding(tokenizer)  # an unknown name raises here
                self._tokenizer = None
                choices = [[n, encoding_info(n)["label"]] for n in list_encoding_names() if encoding_info(n)["listed"]]
                name = tokenizer
            else:
                self._tokenizer = tokenizer
                choices = []
                name = getattr(tokenizer, "name", None) or type(tokenizer).__name__
            super().__init__(text=text, encoding=name, encodings=choices)
            self.observe(self._update, names=["text", "encoding"])
            self._update()

        @traitlets.validate("text")
        def _valid_text(self, proposal: dict) -> str:
            # lone surrogates cannot travel to the page (UTF-8 JSON): U+FFFD, as encoding and training treat them
            return fix_surrogates(proposal["value"])

        @property
        def tokenizer(self) -> Any:
            """The tokenizer in use."""
            return self._tokenizer if self._tokenizer is not None else get_encoding(self.encoding)

        def _update(self, _change: Any = None) -> None:
            try:
                rows, count = token_rows(self.tokenizer, self.text, limit=self._limit)
            except BytepairError as e:
                self.error = e.to_dict()
                return
            with self.hold_sync():  # one message: the page draws tokens, count and length together
                self.tokens, self.count, self.n_chars, self.error = rows, count, len(self.text), {}

    return Tokenize


def compare_rows(texts: Any, tokenizers: list[Any]) -> list[list]:
    """The Compare widget's table: for each text, its size and each tokenizer's token count.

    Args:
        texts: ``{name: text}`` or ``[(name, text), ...]`` (*characters*).
        tokenizers: encoding names (``"gpt2"``) or bytepair tokenizer objects.

    Returns:
        Rows ``[name, n_chars, n_bytes, counts]``, ``counts`` a list of token counts (*tokens*,
        :meth:`encode_ordinary`: special-token text counts as ordinary text) in the order of
        ``tokenizers``; ``n_bytes`` is the UTF-8 length (lone surrogates as U+FFFD).

    Raises:
        ArgumentError: a text that is no ``str``; UnknownNameError: an unknown encoding name.
    """
    pairs = list(texts.items()) if isinstance(texts, dict) else [tuple(pair) for pair in texts]
    encs = [get_encoding(t) if isinstance(t, str) else t for t in tokenizers]
    rows = []
    for name, text in pairs:
        if not isinstance(text, str):
            raise ArgumentError(f"text {name!r} must be a str, got {type(text).__name__}", field="texts")
        text = fix_surrogates(text)
        rows.append([str(name), len(text), len(text.encode("utf-8")), [len(e.encode_ordinary(text)) for e in encs]])
    return rows


def _compare_class(aw: Any, traitlets: Any) -> type:
    """Build :class:`Compare` on ``anywidget`` and ``traitlets`` (once: :func:`_widget_class`)."""

    class Compare(aw.AnyWidget):  # a base known at run time only (anywidget is optional)
        """The same texts under several tokenizers: token counts and UTF-8 bytes per token, counted in the kernel.

        Args:
            texts: ``{name: text}`` or ``[(name, text), ...]`` (e.g. one language per row).
            tokenizers: encoding names or bytepair tokenizer objects (default: gpt2, o200k_base).

        Raises:
            ArgumentError: a text that is no ``str``; UnknownNameError: an unknown encoding name.
        """

        _esm = STATIC / "compare.js"

        tokenizers = traitlets.List().tag(sync=True)  # column names
        rows = traitlets.List().tag(sync=True)  # compare_rows(...)

        def __init__(self, texts: Any, tokenizers: Any = ("gpt2", "o200k_base")) -> None:
            toks = list(tokenizers)
            rows = compare_rows(texts, toks)
            names = [t if isinstance(t, str) else getattr(t, "name", None) or type(t).__name__ for t in toks]
            super().__init__(tokenizers=names, rows=rows)

    return Compare


def _anywidget() -> tuple[Any, Any]:
    try:
        import anywidget
        import traitlets
    except ImportError as e:
        raise ImportError('bytepair.widgets needs anywidget: pip install "bytepair[notebook]"') from e
    return anywidget, traitlets


#: The widget classes' builders, by class name.
_BUILDERS = {"Train": _train_class, "Tokenize": _tokenize_class, "Compare": _compare_class}


def _widget_class(name: str) -> type:
    """The widget class ``name``, built on first use (imports ``anywidget`` and ``traitlets``)
    and kept, named as this module's."""
    cls = _CLASSES.get(name)
    if cls is None:
        aw, traitlets = _anywidget()
        cls = _BUILDERS[name](aw, traitlets)
        cls.__module__ = __name__
        cls.__qualname__ = name
        _CLASSES[name] = cls
    return cls


def __getattr__(name: str) -> Any:
    if name in _BUILDERS:
        return _widget_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
