"""The trainer's pair keys (``left_id << shift | right_id``) on 64-bit and 32-bit builds.

Pyodide (WebAssembly) is a 32-bit build: ``sys.hash_info.width == 32``, and an
int hashes to itself modulo ``2**31 - 1`` (``sys.hash_info.modulus``; the rule
is in CPython's ``Objects/longobject.c``, ``long_hash``). With a fixed
``shift = 32`` a key hashed to ``2 * left + right`` there, so thousands of
pairs shared a hash and the trainer's dict lookups went linear. These tests
check the key layout itself (speed lives in ``tools/bench.py``).
"""

from __future__ import annotations

import pytest

from bytepair.trainer import _key_shift

MODULUS_32 = (1 << 31) - 1  # sys.hash_info.modulus on 32-bit builds


@pytest.mark.parametrize("n_merges", [0, 1, 255, 256, 16384 - 256, 32768 - 256, 100_000, 1_000_000])
def test_every_id_fits_in_the_right_half(n_merges):
    shift = _key_shift(n_merges)
    top = 255 + n_merges  # the largest id training can make
    assert top < (1 << shift)
    x, y = top, top
    assert ((x << shift) | y) >> shift == x and ((x << shift) | y) & ((1 << shift) - 1) == y


@pytest.mark.parametrize("vocab_size", [256, 300, 4096, 16384, 32768])
def test_keys_stay_one_int_digit_and_do_not_collide_on_32_bit(vocab_size):
    shift = _key_shift(vocab_size - 256)
    top = vocab_size - 1
    assert ((top << shift) | top) < (1 << 30)  # one 30-bit digit: CPython's fast int paths
    # every pair of a block of ids (and the block at the top) gets its own 32-bit hash
    for lo in (0, max(0, top - 255)):
        ids = range(lo, min(lo + 256, top + 1))
        hashes = {((x << shift) | y) % MODULUS_32 for x in ids for y in ids}
        assert len(hashes) == len(ids) ** 2
