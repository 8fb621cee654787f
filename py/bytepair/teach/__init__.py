"""Teaching: token explanations and stories, the step-by-step learners (byte-level and textbook BPE),
and the side-by-side alignment of two segmentations. Loaded on first use.
"""
