"""Twenty48Env: Gymnasium API conformance, agreement with Game move for move, options, big tiles."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import example, given, settings
from hypothesis import strategies as st

from twenty48 import Board, Direction, Game, spawns
from twenty48.env import ENV_ID, Twenty48Env, kernels
from twenty48.env.config import MAX_GAIN, MAX_START_SCORE, chained_seed

ORDER = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)


def exponents(board: Board) -> np.ndarray:
    return np.array([v.bit_length() - 1 if v else 0 for v in board.cells], dtype=np.uint8).reshape(4, 4)


def mask_of(board: Board) -> list[int]:
    return [int(board.can_move(d)) for d in ORDER]


def assert_matches(obs, info, game: Game) -> None:
    """The observation and info describe exactly the game's position."""
    grid = obs if obs.shape == (4, 4) else obs.argmax(axis=0)
    assert grid.tolist() == exponents(game.board).tolist()
    assert info["score"] == game.score
    assert info["moves"] == game.moves
    assert info["max_tile"] == game.board.max_tile
    assert info["seed"] == game.seed
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].tolist() == mask_of(game.board)


def play_against_game(env: Twenty48Env, game: Game, rng: np.random.Generator, limit: int = 100_000) -> int:
    """Random actions (illegal ones included) on env and game together until the game is over;
    checks every step and returns the number of steps."""
    for step in range(1, limit + 1):
        action = int(rng.integers(4))
        obs, reward, terminated, truncated, info = env.step(action)
        turn = game.move(Direction.from_index(action))
        assert_matches(obs, info, game)
        assert info["illegal"] is (not turn.changed)
        assert reward == float(turn.score)
        assert type(reward) is float
        assert terminated is game.over
        assert truncated is False
        if terminated:
            return step
    raise AssertionError("the game did not end")


# ---- Gymnasium conformance ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"obs": "onehot"},
        {"reward": "log", "illegal_action": "terminate", "illegal_penalty": 2.5},
        {"reward": "zero", "illegal_penalty": 1},
    ],
)
def test_check_env_passes_without_warnings(kwargs):
    env = gym.make(ENV_ID, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_spaces_and_metadata():
    env = Twenty48Env()
    assert env.action_space == gym.spaces.Discrete(4)
    assert env.observation_space == gym.spaces.Box(0, 17, (4, 4), np.uint8)
    onehot = Twenty48Env(obs="onehot")
    assert onehot.observation_space == gym.spaces.Box(0, 1, (18, 4, 4), np.uint8)
    assert env.metadata["render_modes"] == ["ansi", "rgb_array"]
    assert [d.index for d in ORDER] == [0, 1, 2, 3]


@pytest.mark.integration
def test_registered_on_import_and_through_the_module_prefix():
    assert ENV_ID in gym.registry
    spec = gym.spec(ENV_ID)
    assert spec.entry_point == "twenty48.env.single:Twenty48Env"
    assert spec.vector_entry_point == "twenty48.env.vector:Twenty48VectorEnv"
    # A fresh interpreter that never imported twenty48: gymnasium imports it from the id prefix.
    code = (
        "import gymnasium as gym\n"
        "env = gym.make('twenty48.env:twenty48/Twenty48-v0')\n"
        "obs, info = env.reset(seed=7)\n"
        "print(obs.tolist(), info['seed'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"{exponents(Game.new(7).board).tolist()} 7"


def test_a_time_limit_and_the_illegal_streak_are_the_only_truncations():
    env = gym.make(ENV_ID, max_episode_steps=5)
    env.reset(seed=3)
    flags = [env.step(2)[3] for _ in range(5)]
    assert flags == [False, False, False, False, True]
    bare = Twenty48Env(max_illegal_streak=None)
    bare.reset(seed=3)
    assert not any(bare.step(i % 4)[3] for i in range(300))


# ---- agreement with Game -------------------------------------------------------------------------


def test_random_episodes_agree_with_game_move_for_move():
    rng = np.random.default_rng(2048)
    env = Twenty48Env()
    steps = 0
    for episode in range(60):
        seed = int(rng.integers(0, 2**63)) if episode % 2 else episode
        obs, info = env.reset(seed=seed)
        game = Game.new(seed)
        assert_matches(obs, info, game)
        assert info["illegal"] is False
        steps += play_against_game(env, game, rng)
    assert steps > 5000


def test_onehot_episodes_agree_with_game():
    rng = np.random.default_rng(7)
    env = Twenty48Env(obs="onehot")
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        assert obs.shape == (18, 4, 4)
        assert obs.sum(axis=0).tolist() == [[1] * 4] * 4
        game = Game.new(seed)
        assert_matches(obs, info, game)
        play_against_game(env, game, rng)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), actions=st.lists(st.integers(0, 3), max_size=60))
def test_any_seed_replays_in_game(seed, actions):
    env = Twenty48Env()
    _, info = env.reset(seed=seed)
    assert info["seed"] == seed
    taken = []
    for action in actions:
        _, _, terminated, _, _ = env.step(action)
        taken.append(Direction.from_index(action))
        if terminated:
            break
    game = Game.replay(info["seed"], taken)
    assert env.board == game.board
    assert (env.score, env.moves) == (game.score, game.moves)


def test_reset_without_seed_follows_the_documented_chain():
    env = Twenty48Env()
    env.reset(seed=99)
    _, first = env.reset()
    _, second = env.reset()
    assert first["seed"] == spawns.draw(99, 2**32) >> 11 == chained_seed(99)
    assert second["seed"] == spawns.draw(first["seed"], 2**32) >> 11
    assert env.board == Game.new(second["seed"]).board
    again = Twenty48Env()
    again.reset(seed=99)
    assert again.reset()[1]["seed"] == first["seed"]


def test_first_unseeded_reset_draws_from_np_random():
    env = Twenty48Env()
    _, info = env.reset()
    assert 0 <= info["seed"] < 2**53
    assert env.board == Game.new(info["seed"]).board


def test_reset_with_a_seed_reproduces_the_episode():
    env = Twenty48Env()
    actions = np.random.default_rng(5).integers(0, 4, 200).tolist()

    def run() -> list:
        out = [env.reset(seed=12345)[0].tolist()]
        for a in actions:
            obs, reward, terminated, _, _ = env.step(a)
            out.append((obs.tolist(), reward, terminated))
            if terminated:
                break
        return out

    assert run() == run()


# ---- options ----------------------------------------------------------------------------------------

NEAR_OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [8, 8, 4, 2]])


def test_illegal_action_is_a_noop_without_spawn():
    env = Twenty48Env()
    env.reset(options={"board": Board.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4])}, seed=1)
    obs, reward, terminated, truncated, info = env.step(Direction.LEFT.index)
    assert obs[:, 0].tolist() == [1, 2, 0, 0] and obs.sum() == 3
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["illegal"] is True and info["moves"] == 0 and info["score"] == 0
    assert math.copysign(1, reward) == 1  # not -0.0


def test_reward_options():
    board = Board.from_rows([[1024, 1024, 2, 2], [0] * 4, [0] * 4, [0] * 4])
    for reward, expected in [("score", 2052.0), ("log", math.log2(2053)), ("zero", 0.0)]:
        env = Twenty48Env(reward=reward)
        env.reset(seed=4, options={"board": board})
        _, got, _, _, info = env.step(Direction.LEFT.index)
        assert got == expected
        assert info["score"] == 2052


def test_illegal_penalty_and_termination():
    env = Twenty48Env(illegal_penalty=3)
    env.reset(seed=4, options={"board": NEAR_OVER})
    _, reward, terminated, _, info = env.step(Direction.UP.index)
    assert (reward, terminated, info["illegal"]) == (-3.0, False, True)
    _, reward, _, _, _ = env.step(Direction.LEFT.index)
    assert reward == 16.0

    strict = Twenty48Env(illegal_action="terminate")
    strict.reset(seed=4, options={"board": NEAR_OVER})
    _, reward, terminated, _, info = strict.step(Direction.UP.index)
    assert (reward, terminated, info["illegal"]) == (0.0, True, True)
    assert strict.board == NEAR_OVER


def test_game_over_terminates_and_stays_over():
    over = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    env = Twenty48Env()
    _, info = env.reset(seed=1, options={"board": over})
    assert info["action_mask"].tolist() == [0, 0, 0, 0]
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["illegal"]) == (0.0, True, True)


def test_prepared_board_replays_with_game_from_board():
    rng = np.random.default_rng(11)
    board = Board.from_rows([[2, 2, 4, 8], [16, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    env = Twenty48Env()
    obs, info = env.reset(seed=77, options={"board": board, "score": 500})
    game = Game.from_board(board, seed=info["seed"], score=500)
    assert_matches(obs, info, game)
    play_against_game(env, game, rng)


# ---- tiles beyond the bitboard ---------------------------------------------------------------------


def test_merging_two_32768_gives_an_exact_65536():
    board = Board.from_rows([[32768, 32768, 0, 0], [2, 0, 0, 0], [0] * 4, [0] * 4])
    for obs_mode in ("exponents", "onehot"):
        env = Twenty48Env(obs=obs_mode)
        env.reset(seed=5, options={"board": board, "score": 1_000_000})
        obs, reward, _, _, info = env.step(Direction.LEFT.index)
        game = Game.from_board(board, seed=5, score=1_000_000)
        game.move(Direction.LEFT)
        assert reward == 65536.0
        assert info["max_tile"] == 65536 and info["score"] == 1_065_536
        assert_matches(obs, info, game)
        grid = obs if obs_mode == "exponents" else obs.argmax(axis=0)
        assert grid[0, 0] == 16
        if obs_mode == "onehot":
            assert obs[16, 0, 0] == 1 and obs.sum() == 16


def test_131072_from_two_65536_and_play_on_to_the_end():
    board = Board.from_rows([[65536, 65536, 4, 2], [2, 32768, 16, 8], [4, 8, 2, 4], [0, 0, 0, 0]])
    env = Twenty48Env()
    obs, info = env.reset(seed=9, options={"board": board})
    assert obs[0, :2].tolist() == [16, 16]
    game = Game.from_board(board, seed=9)
    assert_matches(obs, info, game)
    obs, reward, _, _, info = env.step(Direction.LEFT.index)
    game.move(Direction.LEFT)
    assert reward == 131072.0 + 0 and obs[0, 0] == 17 and info["max_tile"] == 131072
    assert_matches(obs, info, game)
    play_against_game(env, game, np.random.default_rng(3))


def test_a_131072_board_in_onehot_marks_plane_17():
    board = Board.from_rows([[131072, 65536, 32768, 16384], [0] * 4, [0] * 4, [0] * 4])
    env = Twenty48Env(obs="onehot")
    obs, info = env.reset(seed=2, options={"board": board})
    assert obs[17, 0, 0] == obs[16, 0, 1] == obs[15, 0, 2] == obs[14, 0, 3] == 1
    assert info["max_tile"] == 131072
    play_against_game(env, Game.from_board(board, seed=2), np.random.default_rng(4))


# ---- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action", [4, -1, 1.0, "left", None, np.float32(2), True, False, np.bool_(True), np.array(True)]
)
def test_bad_actions_raise_and_change_nothing(action):
    env = Twenty48Env()
    env.reset(seed=8)
    before = (env.board, env.score, env.moves)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert (env.board, env.score, env.moves) == before


def test_numpy_integer_actions_are_accepted():
    env = Twenty48Env()
    env.reset(seed=8)
    env.step(np.int64(1))
    env.step(np.array(2))


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"bord": Board.empty()}, "unknown reset option"),
        ({"board": Board.empty()}, "no tile"),
        ({"board": [[2, 3, 0, 0]] * 4}, "power of two"),
        ({"board": [[2, 0, 0]] * 4}, "4 rows of 4"),
        ({"board": [[131072, 131072, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, "two 131072"),
        ({"board": [[2, 0, 0, 0]] * 4, "score": -1}, "score"),
        ({"score": 10}, "board"),
    ],
)
def test_bad_reset_options_raise_and_change_nothing(options, match):
    env = Twenty48Env()
    env.reset(seed=8)
    env.step(0)
    before = (env.board, env.score, env.moves, env.game_seed)
    with pytest.raises(ValueError, match=match):
        env.reset(seed=1, options=options)
    assert (env.board, env.score, env.moves, env.game_seed) == before


ONE_TILE = [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]


def scores_without_room(test):
    """Run ``test(score)`` on start scores the env must refuse: negative, or past the largest
    that leaves room for every point a game can still add (the vector env's tests use it too)."""
    test = example(score=2**63)(example(score=2**63 - 1)(example(score=MAX_START_SCORE + 1)(test)))
    scores = st.integers(MAX_START_SCORE + 1, 2**80) | st.integers(max_value=-1)
    return settings(max_examples=40, deadline=None)(given(score=scores)(test))


@scores_without_room
def test_a_start_score_without_room_for_the_game_is_refused_and_changes_nothing(score):
    env = Twenty48Env()
    env.reset(seed=7)
    env.step(0)
    env.step(2)
    before = (env.board, env.score, env.moves, env.game_seed)
    with pytest.raises(ValueError, match=r"options\['score'\] must be an integer from 0 to"):
        env.reset(options={"board": ONE_TILE, "score": score})
    assert (env.board, env.score, env.moves, env.game_seed) == before


def test_the_start_score_bound_is_what_the_kernels_score_holds() -> None:
    # The bound is kept in the rules, where the store's imports find it too; the kernels' score
    # is the reason for its value.
    assert np.iinfo(kernels.STATE["score"]).max == MAX_START_SCORE + MAX_GAIN


@settings(max_examples=25, deadline=None)
@given(
    score=st.integers(MAX_START_SCORE - 2**20, MAX_START_SCORE),
    actions=st.lists(st.integers(0, 3), max_size=40),
)
def test_the_highest_start_scores_play_on_without_overflow(score, actions):
    # Two 65536 merge at once into the largest tile, the biggest single gain there is.
    board = Board.from_rows([[65536, 65536, 0, 0], [4, 2, 0, 0], [0] * 4, [0] * 4])
    env = Twenty48Env()
    _, info = env.reset(seed=3, options={"board": board, "score": score})
    taken = [Direction.LEFT]
    _, reward, _, _, info = env.step(2)
    assert reward == 131072 and info["score"] == score + 131072
    for action in actions:
        *_, terminated, _, info = env.step(action)
        taken.append(Direction.from_index(action))
        if terminated:
            break
    game = Game.from_board(board, seed=3, score=score)
    for direction in taken:
        game.move(direction)
    assert info["score"] == env.score == game.score > score


@pytest.mark.parametrize("seed", [np.int64(5), np.uint64(5), np.int32(5), np.uint8(5)])
def test_numpy_integer_seeds_are_game_seeds(seed):
    env = Twenty48Env()
    obs, info = env.reset(seed=seed)
    assert info["seed"] == 5 and type(info["seed"]) is int
    assert env.board == Game.new(5).board
    # The same episode as a Python int seed, np_random included.
    twin = Twenty48Env()
    assert (twin.reset(seed=5)[0] == obs).all()
    assert env.np_random.integers(1 << 30) == twin.np_random.integers(1 << 30)


@pytest.mark.parametrize("seed", [-1, 2**64, True, np.bool_(True), 5.0])
def test_seeds_outside_the_game_seed_range_raise(seed):
    with pytest.raises(ValueError, match="seed"):
        Twenty48Env().reset(seed=seed)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"obs": "tiles"}, "obs"),
        ({"reward": "points"}, "reward"),
        ({"illegal_action": "penalty"}, "illegal_action"),
        ({"illegal_penalty": -1}, "illegal_penalty"),
        ({"illegal_penalty": float("nan")}, "illegal_penalty"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_constructor_options_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Twenty48Env(**kwargs)


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        Twenty48Env().step(0)


def test_action_masks_are_the_legal_moves():
    env = Twenty48Env()
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    board = Board.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4])
    _, info = env.reset(seed=1, options={"board": board})
    masks = env.action_masks()
    assert masks.dtype == np.bool_ and masks.tolist() == [False, True, False, True]
    masks[:] = True  # the caller's copy
    for _ in range(30):
        legal = env.action_masks()
        assert legal.tolist() == (info["action_mask"] == 1).tolist()
        if not legal.any():
            break
        *_, info = env.step(int(np.flatnonzero(legal)[0]))
    # Through gym.make's wrappers too.
    wrapped = gym.make(ENV_ID)
    wrapped.reset(seed=2)
    assert wrapped.get_wrapper_attr("action_masks")().tolist() == [
        bool(m) for m in wrapped.unwrapped.action_masks()
    ]
