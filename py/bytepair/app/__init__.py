"""What the playground decides: its shipped open models, the facts its page reads, its chat formats,
token limits and stepped counts, the gallery and the lessons. Loaded on first use.
"""
