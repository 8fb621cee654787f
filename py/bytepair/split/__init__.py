"""Splitting text before BPE: the pre-tokenizer patterns, their compilation for ``re``/``regex`` and their
rewrites (Oniguruma, ``re`` forms), and the generated Unicode tables they use.

Imports only :mod:`bytepair.errors` from outside; everything that splits text imports from here.
"""
