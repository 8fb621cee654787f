"""The test corpora themselves: the slow sweeps' UDHR cover still holds every character."""

from __future__ import annotations

from tests import corpora


def test_udhr_cover_holds_every_character_of_the_declarations_outside_the_sample():
    # the slow sweeps read corpora.UDHR_COVER, not all ~500 declarations: a character of some
    # declaration in neither the sample nor the cover (a new udhr release) would go untested
    rest = corpora.udhr_rest()
    if rest and rest[0].id == "udhr-missing":
        rest[0].text()  # skips with the command to run (fails under CI)
    sample = set().union(*(set(c.text()) for c in corpora.udhr(corpora.UDHR_SAMPLE)))
    chosen = {c.id for c in corpora.udhr([c for c in corpora.udhr_codes() if c in corpora.UDHR_COVER])}
    covered = set(sample)
    for c in rest:
        if c.id in chosen:
            covered |= set(c.text())
    missing = {}
    for c in rest:
        for ch in set(c.text()) - covered:
            missing.setdefault(f"U+{ord(ch):04X}", c.id)
    assert missing == {}, f"add these declarations to corpora.UDHR_COVER: {sorted(set(missing.values()))}"
    assert "udhr-urd" in chosen and "udhr-pes_1" in chosen  # the courses' languages, whole
    assert len(chosen) < len(rest) / 3  # (the point of it)
