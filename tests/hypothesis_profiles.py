"""Hypothesis profiles, one per place the tests run, and :func:`examples`.

* ``ci`` (under ``CI=true``): each property test's full example count;
* ``dev`` (the default elsewhere): half of it, for a quicker local loop;
* ``pyodide`` (``tests/pyodide/run_core_tests.mjs`` sets ``HYPOTHESIS_PROFILE=pyodide``):
  a third of it, no per-example deadline and no too-slow check: WebAssembly is 2-3x
  slower, and the same properties run in full on CPython in the same CI run.

``HYPOTHESIS_PROFILE=<name>`` picks one by hand (e.g. ``ci`` for the full counts
locally). No profile has a deadline: the machines are shared, times vary.

A test names its full count with ``@settings(max_examples=examples(300))``; the
profile scales it (never below 10).
"""

from __future__ import annotations

import os

IS_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

#: Share of each test's full example count, by profile.
SCALE = {"ci": 1.0, "dev": 0.5, "pyodide": 1 / 3}

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IS_CI else "dev")
if PROFILE not in SCALE:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: use one of {sorted(SCALE)}")


def examples(full: int) -> int:
    """``full`` (a property test's example count under ``ci``) scaled for the profile in use."""
    return max(10, round(full * SCALE[PROFILE]))


def load() -> None:
    """Register the three profiles and load :data:`PROFILE` (nothing without Hypothesis)."""
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:  # the Pyodide runner always has it; a bare CPython may not
        return
    settings.register_profile("ci", deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None)
    settings.register_profile("pyodide", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(PROFILE)
