"""The spawn source: 90/10 odds, uniform cells, and the documented generator."""

from __future__ import annotations

from collections import Counter

import pytest

from twenty48 import spawns

# Fixed seeds and indices: these are deterministic computations, so they can never flake.
N = 200_000


def test_two_with_probability_nine_tenths():
    values = Counter(spawns.spawn_choice(seed, 2, range(16))[1] for seed in range(N))
    assert set(values) == {2, 4}
    share = values[4] / N
    # Binomial(200000, 0.1) has a standard deviation of 0.00067: allow five of them.
    assert abs(share - 0.1) < 0.0034


def test_cells_are_uniform_over_the_empty_ones():
    empty = (1, 4, 6, 9, 13)
    counts = Counter(spawns.spawn_choice(7, index, empty)[0] for index in range(N))
    assert set(counts) == set(empty)
    expected = N / len(empty)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 18.5  # p = 0.001 for 4 degrees of freedom


def test_value_and_cell_are_independent():
    pairs = Counter(spawns.spawn_choice(3, index, range(4)) for index in range(N))
    for cell in range(4):
        share = pairs[(cell, 4)] / (pairs[(cell, 4)] + pairs[(cell, 2)])
        assert abs(share - 0.1) < 0.007


def test_generator_matches_published_splitmix64_outputs():
    # SplitMix64 seeded with 1234567: the first outputs of the reference implementation.
    assert [spawns.draw(1234567, k) for k in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_no_empty_cell_is_an_error():
    with pytest.raises(ValueError):
        spawns.spawn_choice(1, 0, ())
