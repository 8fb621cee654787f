"""File formats: bytepair's own JSON, tiktoken's ``.tiktoken`` files, ``.bpv`` vocabulary files, the
guarded JSON reader every format shares, and the Hugging Face ``tokenizer.json`` export.
"""
