#!/usr/bin/env python3
"""Build, serve, test and benchmark bytepair: the one entry point.

Usage (from the repository root)::

    python build.py [build]                      build the playground into web/dist/
    python build.py serve [--port N] [--host H]  build when needed, then serve web/dist/
    python build.py test [pytest args...]        set up what is missing, build, lint, run the tests
    python build.py lint                         only the lint stage (ruff, prettier, eslint)
    python build.py bench [args...]              run tools/bench.py

This file only dispatches; the work is in importable modules under ``tools/``:

* ``tools/site_build.py``  the site build (layout of ``web/dist/`` in its docstring)
* ``tools/wheels.py``      the bytepair web wheel (slimmed) and the PyPI wheels
* ``tools/serve.py``       the static server (``serve``, and the tests' server); sends the
                           precompressed copies of ``tools/precompress.py`` with Content-Encoding
* ``tools/setup_env.py``   prerequisites; npm, pip and (as root on Debian) apt-get installs
* ``tools/testrun.py``     the lint stage and the pytest run with its junit check
* ``tools/buildutil.py``   paths, ``BuildError``, logging, running commands

Only the standard library is used; ``npm``, ``pip`` and ``apt-get`` run as
subprocesses. When a step fails, the command stops and prints what failed and
what to do. Every build step redoes only what is stale.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys

from tools import serve, setup_env, site_build, testrun
from tools.buildutil import ROOT, BuildError, log


def cmd_build() -> int:
    setup_env.check_prerequisites()
    site_build.build_site()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    setup_env.check_prerequisites()
    site_build.build_site()
    serve.serve(args.host, args.port, quiet=args.quiet, isolate=args.isolate)
    return 0


def cmd_test(pytest_args: list[str], argv: list[str]) -> int:
    """Set up, build, lint (whole-suite runs only), then pytest; 0 only when all of it passed."""
    setup_env.check_prerequisites(for_tests=True)
    setup_env.ensure_python_test_env(argv)
    site_build.build_site()
    lint_rc = 0
    if pytest_args:
        log("lint: skipped (pytest arguments given: a targeted run); `python build.py lint` runs it")
    else:
        lint_rc = testrun.lint()
    rc = testrun.run_pytest(pytest_args)
    return rc or lint_rc


def cmd_bench(rest: list[str]) -> int:
    setup_env.check_prerequisites()
    site_build.build_site()  # the browser figures run on web/dist
    cmd = [sys.executable, str(ROOT / "tools" / "bench.py"), *rest]
    log(f"$ {shlex.join(cmd)}")
    return subprocess.call(cmd, cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("build", help="build the site into web/dist/ (the default)")
    p_serve = sub.add_parser("serve", help="build when needed and serve web/dist/")
    p_serve.add_argument("--port", type=int, default=8000, help="port (0 picks a free one; default 8000)")
    p_serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p_serve.add_argument("--quiet", action="store_true", help="do not log requests")
    p_serve.add_argument(
        "--isolate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="send COOP/COEP headers (cross-origin isolation: SharedArrayBuffer, Stop within a merge; "
        "the default); --no-isolate serves as a host without them",
    )
    sub.add_parser("test", help="set up, build, lint and run the tests; extra arguments go to pytest", add_help=False)
    sub.add_parser("lint", help="ruff check, ruff format --check, prettier --check, eslint")
    sub.add_parser("bench", help="run tools/bench.py; extra arguments go to it", add_help=False)

    if argv and argv[0] in ("test", "bench"):
        command, rest = argv[0], argv[1:]
    else:
        args = parser.parse_args(argv)
        command, rest = args.command or "build", []
    try:
        if command == "build":
            return cmd_build()
        if command == "serve":
            return cmd_serve(args)
        if command == "test":
            return cmd_test(rest, argv)
        if command == "lint":
            return testrun.lint()
        if command == "bench":
            return cmd_bench(rest)
    except BuildError as e:
        print(f"\n[build] ERROR: {e}", file=sys.stderr, flush=True)
        return 1
    parser.error(f"unknown command {command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
