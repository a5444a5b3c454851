"""The environments' research options: Merge 2048's spawns (drawn exactly as ``Game`` draws them),
afterstates, channel-last one-hot observations, ending at a tile, and the illegal-action streak that
truncates an episode by default. Every option in both environments, and ``check_env``."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from test_env import exponents
from twenty48 import Board, Direction, Game
from twenty48.env import ENV_ID, Twenty48Env, Twenty48VectorEnv
from twenty48.env.config import DEFAULT_MAX_ILLEGAL_STREAK

#: Prepared starts: Merge 2048's stages 1-4 (256 to 2048 on the board), a board the bitboard cannot
#: hold (65536), and one whose left move merges two 32768 tiles.
STARTS = [
    Board.parse("256 2 0 0/4 0 0 0/0 0 0 0/0 0 0 2"),
    Board.parse("512 8 2 0/4 0 0 0/0 0 0 0/0 0 2 0"),
    Board.parse("1024 16 4 0/0 0 0 0/0 2 0 0/0 0 0 0"),
    Board.parse("2048 1024 4 2/0 0 0 0/0 0 0 0/2 0 0 0"),
    Board.parse("65536 8 4 2/0 0 0 0/0 0 0 0/0 2 0 0"),
    Board.parse("32768 32768 4 2/0 0 0 0/0 0 2 0/0 0 0 0"),
]


def grid(obs: np.ndarray) -> list[list[int]]:
    """The exponent grid of an observation of any of the three kinds."""
    if obs.shape == (4, 4):
        return obs.tolist()
    return (obs.argmax(axis=0) if obs.shape[0] == 18 else obs.argmax(axis=-1)).tolist()


@pytest.mark.parametrize("obs", ["exponents", "onehot", "onehot_last"])
@pytest.mark.parametrize("variant", ["classic", "merge"])
def test_check_env_passes_with_every_option(obs, variant):
    env = Twenty48Env(obs=obs, variant=variant, end_at_tile=1024, max_illegal_streak=10)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("start", [None, *STARTS])
def test_merge_spawns_in_the_single_env_are_games(start):
    env = Twenty48Env(variant="merge", max_illegal_streak=None)
    rng = np.random.default_rng(7)
    for seed in range(3):
        options = None if start is None else {"board": start}
        obs, _ = env.reset(seed=seed, options=options)
        game = (
            Game.new(seed, "merge") if start is None else Game.from_board(start, seed=seed, variant="merge")
        )
        assert grid(obs) == exponents(game.board).tolist()
        for _ in range(400):
            action = int(rng.integers(4))
            obs, reward, terminated, _, info = env.step(action)
            turn = game.move(Direction.from_index(action))
            assert env.board == game.board and grid(obs) == exponents(game.board).tolist()
            assert (reward, info["score"], terminated) == (float(turn.score), game.score, game.over)
            if terminated:
                break


def test_merge_spawns_in_the_vector_env_are_games():
    n = 8
    envs = Twenty48VectorEnv(n, variant="merge", max_illegal_streak=None)
    envs.reset(seed=50)
    games = [Game.new(50 + i, "merge") for i in range(n)]
    rng = np.random.default_rng(3)
    terminated = np.zeros(n, dtype=bool)
    while not terminated.any():  # up to the first game over (the next step would start a new game)
        actions = rng.integers(4, size=n)
        _, rewards, terminated, _, _ = envs.step(actions)
        for i, game in enumerate(games):
            turn = game.move(Direction.from_index(int(actions[i])))
            assert envs.board(i) == game.board
            assert (rewards[i], terminated[i]) == (float(turn.score), game.over)
    # The staged spawns reach past 2 and 4 once a game's largest tile is 256.
    big = Twenty48VectorEnv(2, variant="merge", max_illegal_streak=None)
    big.reset(seed=9, options={"board": STARTS[3]})
    reference = [Game.from_board(STARTS[3], seed=9 + i, variant="merge") for i in range(2)]
    for _ in range(60):
        actions = rng.integers(4, size=2)
        big.step(actions)
        for i, game in enumerate(reference):
            if not game.over:
                game.move(Direction.from_index(int(actions[i])))
                assert big.board(i) == game.board


@pytest.mark.parametrize("obs", ["exponents", "onehot", "onehot_last"])
@pytest.mark.parametrize("start", [None, *STARTS[3:]])
def test_afterstates_are_the_boards_after_each_move_before_its_spawn(obs, start):
    env = Twenty48Env(obs=obs, reward="log", illegal_penalty=2.0)
    envs = Twenty48VectorEnv(2, obs=obs, reward="log", illegal_penalty=2.0)
    options = None if start is None else {"board": start}
    env.reset(seed=4, options=options)
    envs.reset(seed=4, options=options)
    rng = np.random.default_rng(1)
    for _ in range(40):
        board = env.board
        afterstates, rewards, legal = env.afterstates()
        assert afterstates.shape == (4, *env.observation_space.shape)
        for d in range(4):
            moved = board.move(Direction.from_index(d))
            assert grid(afterstates[d]) == exponents(moved.board).tolist()
            assert legal[d] == moved.changed
            assert rewards[d] == (np.log2(1 + moved.score) if moved.changed else -2.0)
        batch = envs.afterstates()
        assert all(
            np.array_equal(part[0], whole)
            for part, whole in zip(batch, (afterstates, rewards, legal), strict=True)
        )
        action = int(rng.integers(4))
        _, reward, terminated, _, _ = env.step(action)
        envs.step(np.array([action, action]))
        assert reward == rewards[action]
        # The step adds the spawn to its action's afterstate, and nothing else.
        after = np.array(exponents(env.board))
        changed = after != np.array(grid(afterstates[action]))
        assert changed.sum() == (1 if legal[action] else 0)
        if terminated:
            break


def test_channel_last_observations_are_the_channel_first_ones_moved():
    first, last = Twenty48Env(obs="onehot"), Twenty48Env(obs="onehot_last")
    assert last.observation_space.shape == (4, 4, 18)
    a, _ = first.reset(seed=11)
    b, _ = last.reset(seed=11)
    rng = np.random.default_rng(2)
    for _ in range(60):
        assert np.array_equal(np.moveaxis(a, 0, -1), b) and b.flags.c_contiguous
        action = int(rng.integers(4))
        a = first.step(action)[0]
        b = last.step(action)[0]
    firsts, lasts = Twenty48VectorEnv(3, obs="onehot"), Twenty48VectorEnv(3, obs="onehot_last")
    a, _ = firsts.reset(seed=5)
    b, _ = lasts.reset(seed=5)
    for _ in range(30):
        assert b.shape == (3, 4, 4, 18) and np.array_equal(np.moveaxis(a, 1, -1), b)
        actions = rng.integers(4, size=3)
        a = firsts.step(actions)[0]
        b = lasts.step(actions)[0]


def test_an_episode_ends_when_the_tile_is_made():
    env = Twenty48Env(end_at_tile=2048)
    env.reset(seed=1, options={"board": Board.parse("1024 1024 0 0/0 0 0 0/0 0 0 0/0 2 0 0")})
    _, _, terminated, _, info = env.step(Direction.UP.index)
    assert not terminated and info["max_tile"] == 1024  # a move that makes no 2048
    _, _, terminated, truncated, info = env.step(Direction.LEFT.index)
    assert terminated and not truncated and info["max_tile"] == 2048
    envs = Twenty48VectorEnv(2, end_at_tile=64, autoreset_mode="Disabled")
    envs.reset(seed=3)
    rng = np.random.default_rng(0)
    ended_at_64 = 0
    for _ in range(3000):
        _, _, terminated, _, info = envs.step(rng.integers(4, size=2))
        reached = info["max_tile"] >= 64
        over = ~info["action_mask"].any(axis=1)
        assert (terminated == (reached | over)).all()
        ended_at_64 += int((terminated & reached).sum())
        if terminated.any():
            envs.reset(options={"reset_mask": terminated})
    assert ended_at_64 > 10
    with pytest.raises(ValueError, match="already holds a tile of 2048"):
        env.reset(options={"board": Board.parse("2048 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2")})
    for wrong in (4, 3, 100, 262144, True, "2048"):
        with pytest.raises(ValueError, match="end_at_tile"):
            Twenty48Env(end_at_tile=wrong)


@pytest.mark.parametrize("maker", ["registered", "class", "vector"])
def test_an_episode_of_illegal_actions_is_truncated_after_100_in_a_row(maker):
    assert DEFAULT_MAX_ILLEGAL_STREAK == 100
    # Up is illegal on this board until another move changes it.
    board = Board.parse("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0")
    if maker == "vector":
        env = Twenty48VectorEnv(1, autoreset_mode="Disabled")
        env.reset(seed=1, options={"board": board})
        step = lambda a: tuple(x[0] for x in env.step(np.array([a]))[:4])  # noqa: E731
    else:
        env = gym.make(ENV_ID) if maker == "registered" else Twenty48Env()
        env.reset(seed=1, options={"board": board})
        step = lambda a: env.step(a)[:4]  # noqa: E731
    for _ in range(60):
        assert step(Direction.UP.index)[3] == False  # noqa: E712 - a NumPy bool in the vector env
    step(Direction.DOWN.index)  # a legal move starts the count again
    flags = [step(Direction.DOWN.index)[3] for _ in range(DEFAULT_MAX_ILLEGAL_STREAK)]
    assert [bool(f) for f in flags] == [False] * (DEFAULT_MAX_ILLEGAL_STREAK - 1) + [True]
    unlimited = gym.make(ENV_ID, max_illegal_streak=None)
    unlimited.reset(seed=1, options={"board": board})
    assert not any(unlimited.step(Direction.UP.index)[3] for _ in range(300))
    for wrong in (0, -1, 1.5, True, 2**63):
        with pytest.raises(ValueError, match="max_illegal_streak"):
            Twenty48Env(max_illegal_streak=wrong)


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="variant must be one of 'classic', 'merge'"):
        Twenty48Env(variant="hex")
    with pytest.raises(ValueError, match="variant"):
        Twenty48VectorEnv(2, variant="chess")
