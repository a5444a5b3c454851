"""The environments on boards of every size: spaces, ``check_env``, episodes that replay as games,
the vector env against single envs (threads included), afterstates, masks and prepared boards."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from test_env_vector import run_against_reference
from twenty48 import Board, BoardSize, Direction, Game
from twenty48.env import ENV_ID, Twenty48Env, Twenty48VectorEnv, vector

SIZES = [(2, 2), (2, 6), (3, 3), (3, 4), (4, 3), (5, 5), (6, 2), (6, 6)]


def exponents(board: Board) -> list[list[int]]:
    return [[v.bit_length() - 1 if v else 0 for v in row] for row in board.rows]


def grid(obs: np.ndarray, size: BoardSize) -> list[list[int]]:
    """The exponent grid of an observation of any kind on a board of ``size``."""
    if obs.shape == (size.rows, size.cols):
        return obs.tolist()
    return (obs.argmax(axis=0) if obs.shape[0] == size.cells + 2 else obs.argmax(axis=-1)).tolist()


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("obs", ["exponents", "onehot", "onehot_last"])
def test_check_env_passes_on_every_size(size, obs):
    check_env(Twenty48Env(size=size, obs=obs), skip_render_check=True)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_spaces_follow_the_size(size):
    rows, cols = size
    planes = rows * cols + 2
    assert Twenty48Env(size=size).observation_space == gym.spaces.Box(
        0, rows * cols + 1, (rows, cols), np.uint8
    )
    assert Twenty48Env(size=size, obs="onehot").observation_space.shape == (planes, rows, cols)
    assert Twenty48Env(size=size, obs="onehot_last").observation_space.shape == (rows, cols, planes)
    envs = Twenty48VectorEnv(3, size=size, obs="onehot")
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (3, planes, rows, cols) and envs.single_observation_space.shape == (
        planes,
        rows,
        cols,
    )


@pytest.mark.parametrize("size", ["2x3", "3x3", "4x5", "6x6"])
@pytest.mark.parametrize("variant", ["classic", "merge"])
@pytest.mark.parametrize("obs", ["exponents", "onehot_last"])
def test_an_episode_replays_as_the_game_of_its_seed_actions_and_size(size, variant, obs):
    env = Twenty48Env(size=size, variant=variant, obs=obs, max_illegal_streak=None)
    board_size = BoardSize.parse(size)
    rng = np.random.default_rng(3)
    for seed in (0, 2**64 - 5):
        observation, info = env.reset(seed=seed)
        actions = []
        for _ in range(300):
            actions.append(int(rng.integers(4)))
            observation, _, terminated, _, info = env.step(actions[-1])
            if terminated:
                break
        game = Game.replay(info["seed"], [Direction.from_index(a) for a in actions], variant, size=size)
        assert env.board == game.board and grid(observation, board_size) == exponents(game.board)
        assert (info["score"], info["moves"], info["max_tile"]) == (
            game.score,
            game.moves,
            game.board.max_tile,
        )
        assert env.action_masks().tolist() == [d in game.board.legal_moves() for d in Direction]


@pytest.mark.parametrize("size", [(2, 3), (3, 3), (5, 5), (6, 2)], ids=str)
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_the_vector_env_plays_the_games_of_single_envs(size, mode):
    assert run_against_reference(6, 120, mode, max_steps=50, size=size, obs="onehot") > 0


def test_slices_of_the_games_step_on_threads_as_they_would_in_one(monkeypatch):
    monkeypatch.setattr(vector, "PARALLEL_BOARDS", 4)
    assert Twenty48VectorEnv(9, size=(3, 3))._slices[0] != slice(0, 9)
    assert run_against_reference(9, 150, AutoresetMode.NEXT_STEP, max_steps=40, size=(3, 3)) > 0


@pytest.mark.parametrize("size", [(2, 4), (3, 5), (6, 6)], ids=str)
def test_afterstates_are_the_moves_of_the_rules(size):
    env = Twenty48Env(size=size)
    envs = Twenty48VectorEnv(2, size=size)
    env.reset(seed=11)
    envs.reset(seed=11)
    for action in (0, 2, 1, 3, 2, 0):
        exps, rewards, legal = env.afterstates()
        for d in Direction:
            moved = env.board.move(d)
            assert exps[d.index].tolist() == exponents(moved.board)
            assert (rewards[d.index], legal[d.index]) == (
                float(moved.score) if moved.changed else 0.0,
                moved.changed,
            )
        vector_exps, vector_rewards, _ = envs.afterstates()
        assert vector_exps[0].tolist() == exps.tolist() and vector_rewards[0].tolist() == rewards.tolist()
        env.step(action)
        envs.step(np.array([action, action]))


def test_a_prepared_board_of_the_size_starts_a_game_and_one_of_another_is_refused():
    other = Board.from_rows([[2, 0, 0], [0, 0, 4]])
    env = Twenty48Env(size=(3, 3), max_illegal_streak=None)
    with pytest.raises(ValueError, match="from 8 to 1024 on a 3x3 board"):
        Twenty48Env(size=(3, 3), end_at_tile=2048)
    start = Board.from_rows([[512, 512, 0], [0, 0, 0], [4, 0, 0]])
    obs, info = env.reset(seed=2, options={"board": start, "score": 100})
    assert obs.tolist() == exponents(start) and info["max_tile"] == 512
    _, reward, _, _, info = env.step(2)
    assert (reward, info["score"], info["max_tile"]) == (1024.0, 1124, 1024)
    game = Game.from_board(start, seed=2, score=100)
    game.move(Direction.LEFT)
    assert env.board == game.board
    with pytest.raises(ValueError, match="options\\['board'\\] is 2x3, this environment plays 3x3"):
        env.reset(options={"board": other})
    envs = Twenty48VectorEnv(2, size=(6, 6))
    largest = Board.from_cells([2**36, 2**36] + [0] * 33 + [2], "6x6")
    envs.reset(seed=0, options={"board": largest})
    _, rewards, _, _, info = envs.step(np.array([2, 2]))
    assert rewards.tolist() == [2.0**37] * 2 and info["max_tile"].tolist() == [2**37] * 2


def test_gym_make_and_make_vec_take_the_size():
    env = gym.make(ENV_ID, size=(5, 5))
    obs, _ = env.reset(seed=1)
    assert obs.shape == (5, 5) and env.unwrapped.board == Game.new(1, size=(5, 5)).board
    envs = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", size="2x4")
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (3, 2, 4)
    with pytest.raises(ValueError, match="R and C each from 2 to 6"):
        Twenty48Env(size=(7, 7))


def test_rgb_pictures_follow_the_size():
    env = Twenty48Env(size=(2, 5), render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (2 * 100 + 3 * 12, 5 * 100 + 6 * 12, 3)


def test_the_sb3_adapter_and_maskable_ppo_play_other_sizes():
    pytest.importorskip("stable_baselines3")
    maskable = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks

    from twenty48.env.sb3 import Twenty48SB3VecEnv

    env = Twenty48SB3VecEnv(4, size=(3, 3), obs="onehot")
    env.seed(3)
    assert env.reset().shape == (4, 11, 3, 3)
    masks = get_action_masks(env)
    assert masks.shape == (4, 4) and masks.any(axis=1).all()
    model = maskable.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps == 64
