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


# ---- the keyed scheme of ranked games --------------------------------------------------------------

KEY = bytes(range(32))


def test_the_keyed_scheme_is_keyed_blake2b_of_the_index():
    import hashlib

    digest = hashlib.blake2b((5).to_bytes(8, "little"), key=KEY, digest_size=8).digest()
    assert spawns.draw(KEY, 5) == int.from_bytes(digest, "little")
    assert spawns.draw(KEY, 5) == spawns.draw(bytes(KEY), 5)
    assert spawns.draw(KEY, 5) != spawns.draw(KEY, 6)
    assert spawns.draw(KEY, 5) != spawns.draw(bytes(31) + b"\x01", 5)
    assert (spawns.scheme(KEY), spawns.scheme(7)) == ("blake2b", "splitmix64")


def test_keyed_values_are_nine_tenths_twos_and_cells_uniform():
    n = 50_000
    values = Counter(spawns.spawn_choice(KEY, index, range(16))[1] for index in range(n))
    # Binomial(50000, 0.1): a standard deviation of 0.00134, five of them allowed.
    assert abs(values[4] / n - 0.1) < 0.0067
    empty = (0, 3, 8, 11, 15)
    cells = Counter(spawns.spawn_choice(KEY, index, empty)[0] for index in range(n))
    expected = n / len(empty)
    assert sum((c - expected) ** 2 / expected for c in cells.values()) < 18.5


@pytest.mark.parametrize("bad", [b"short", bytes(33), "00" * 32, -1, 2**64, 1.5, True])
def test_a_seed_is_an_integer_in_range_or_a_32_byte_key(bad):
    with pytest.raises(ValueError):
        spawns.check_seed(bad)


@pytest.mark.parametrize(
    ("value", "scheme"),
    [
        ("AB" * 32, "blake2b"),
        ("ab" * 31, "blake2b"),
        (" " + "ab" * 31 + "a", "blake2b"),
        (7, "blake2b"),
        ("7", "splitmix64"),
        ("ab" * 32, "xorshift"),
    ],
)
def test_a_seed_in_json_must_fit_its_scheme(value, scheme):
    with pytest.raises(ValueError):
        spawns.seed_from_json(value, scheme)


def test_a_keyed_game_replays_exactly_and_undo_cannot_reroll():
    from twenty48.game import Game

    game = Game.new(KEY)
    assert game.spawns == "blake2b" and game.board == Game.new(bytes(KEY)).board
    while game.moves < 40 and not game.over:
        game.move(game.board.legal_moves()[0])
    assert Game.replay(KEY, game.actions).to_dict() == game.to_dict()
    saved = game.to_dict()
    assert (saved["spawns"], saved["seed"]) == ("blake2b", KEY.hex())
    assert Game.from_dict(saved).to_dict() == saved
    before = game.board
    direction = game.actions[-1]
    game.undo()
    game.play(direction)
    assert game.board == before
    assert "blake2b" in repr(game) and KEY.hex() not in repr(game)


def test_a_version_3_save_loads_and_replays_as_it_did():
    import json

    from twenty48.game import Game

    # Written by the version before the spawn schemes (saved-game version 3): seed 7, three moves.
    old = json.loads(
        '{"version": 3, "variant": "classic", "seed": 7, "board": [[4, 2, 0, 0], [0, 4, 0, 0], '
        '[2, 0, 0, 0], [0, 0, 0, 0]], "score": 4, "moves": 3, "won": false, "keep_playing": false, '
        '"over": false, "undo": [{"board": [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]], '
        '"score": 0, "won": false, "keep_playing": false}, {"board": [[0, 0, 0, 0], [0, 0, 0, 0], '
        '[0, 0, 2, 0], [0, 2, 0, 4]], "score": 0, "won": false, "keep_playing": false}, {"board": '
        '[[0, 0, 0, 0], [0, 2, 0, 0], [2, 0, 0, 0], [2, 4, 0, 0]], "score": 0, "won": false, '
        '"keep_playing": false}], "actions": ["down", "left", "up"]}'
    )
    game = Game.from_dict(old)
    assert (game.seed, game.spawns) == (7, "splitmix64")
    replayed = Game.replay(game.seed, game.actions)
    assert replayed.to_dict() == game.to_dict()
    assert [list(r) for r in replayed.board.rows] == old["board"] and replayed.score == old["score"]
