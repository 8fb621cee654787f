"""The step-through view: ``bytepair.teach.steps.learn_steps`` sessions, one step at a time.

One session per client (:data:`playground.state.steps`: embeds sharing one runtime each
keep theirs); the page names it by the number ``steps_learn`` returned, and a call naming
a replaced session fails with ``field="session"``.
"""

from __future__ import annotations

import json

from bytepair.errors import ArgumentError
from bytepair.teach import steps

from . import state
from .convert import dumps, exposed


@exposed
def steps_learn(options_json: str, client: str = "") -> str:
    """``{mode, text, input, tie, pattern, n_merges}`` -> ``bytepair.teach.steps.learn_steps``; JSON
    ``{session, mode, n_steps, requested, merges: {left, right, merged, count} (columns),
    n_rows, n_symbols_start, n_bytes}``. ``client``: the page asking (the worker's client id);
    its new session replaces its older one only."""
    o = json.loads(options_json)
    session = steps.learn_steps(
        o.get("mode", "textbook"),
        o.get("text", ""),
        int(o.get("n_merges", 10)),
        input=o.get("input", "counts"),
        tie_break=o.get("tie", "first"),
        pattern=o.get("pattern", "gpt2"),
    )
    number = state.steps.add(client, session)
    m = session.merges
    return dumps(
        {
            "session": number,
            "mode": session.mode,
            "n_steps": session.n_steps,
            "requested": session.requested,
            "merges": {
                "left": [x.pair[0] for x in m],
                "right": [x.pair[1] for x in m],
                "merged": [x.merged for x in m],
                "count": [x.count for x in m],
            },
            "n_rows": session.n_rows,
            "n_symbols_start": session.n_symbols_start,
            "n_bytes": session.n_bytes,
        }
    )


def _current(session: int) -> steps.StepSession:
    found = state.steps.find(session)
    if found is None:
        raise ArgumentError("These steps were replaced by newer ones; learn the merges again.", field="session")
    return found


@exposed
def steps_view(session: int, index: int) -> str:
    """JSON of ``StepSession.step(index).to_dict()`` (``bytepair.teach.steps.StepView``) plus ``session``."""
    return dumps({"session": session, **_current(session).step(index).to_dict()})


@exposed
def steps_encode(session: int, text: str) -> str:
    """The session's merges applied to a new word (textbook) or short text (bytes):
    JSON ``{start: [symbols], fired: [ApplyStep.to_dict(), ...], n_rules}``."""
    s = _current(session)
    fired = s.apply(text)
    return dumps({"start": s.start_symbols(text), "n_rules": s.n_steps, "fired": [f.to_dict() for f in fired]})
