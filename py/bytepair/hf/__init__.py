"""Open models: Hugging Face ``tokenizer.json`` files (the pipeline's stages, added tokens, lazy tables,
stepped counts) and Mistral's Tekken files.
"""
