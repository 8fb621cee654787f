# A course page built with Sphinx, with three <bytepair-widget> elements (docs/EMBED.md), through the
# tiny extension in _ext/bytepair_widget.py. Build: pip install sphinx && sphinx-build web/examples/sphinx out
# Replace https://example.org/bytepair/ with wherever the playground is published
# (tests/e2e/test_recipes_built.py builds a copy pointing at its local playground).
import os
import sys

sys.path.insert(0, os.path.abspath("_ext"))

project = "ٹوکنائزر کا سبق"
language = "ur"
extensions = ["bytepair_widget"]
html_theme = "alabaster"
bytepair_widget_js = "https://example.org/bytepair/widget.js"
