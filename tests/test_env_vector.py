"""Twenty48VectorEnv: the vector API, autoreset modes, and agreement with N single environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st

from test_env import scores_without_room
from twenty48 import Board, Direction, Game
from twenty48.env import ENV_ID, Twenty48Env, Twenty48VectorEnv
from twenty48.env.config import MAX_START_SCORE

INFO_KEYS = {"action_mask", "score", "max_tile", "moves", "illegal", "seed"}
OPTION_SETS = [
    {},
    {"obs": "onehot"},
    {"reward": "log", "illegal_penalty": 0.5},
    {"reward": "zero", "illegal_action": "terminate", "illegal_penalty": 2},
]


class Reference:
    """N single environments driven with Gymnasium's next-step or same-step autoreset by hand."""

    def __init__(
        self, n: int, seed: int, mode: AutoresetMode, max_steps: int | None, reset_options=None, **options
    ):
        self.envs = [Twenty48Env(**options) for _ in range(n)]
        self.mode = mode
        self.max_steps = max_steps
        self.elapsed = [0] * n
        self.done = [False] * n
        self.first = [env.reset(seed=seed + i, options=reset_options) for i, env in enumerate(self.envs)]

    def step(self, actions):
        out = []
        for i, env in enumerate(self.envs):
            if self.mode is AutoresetMode.NEXT_STEP and self.done[i]:
                obs, info = env.reset()
                self.elapsed[i] = 0
                self.done[i] = False
                out.append((obs, 0.0, False, False, info, None))
                continue
            obs, reward, terminated, _, info = env.step(int(actions[i]))
            self.elapsed[i] += 1
            truncated = self.max_steps is not None and self.elapsed[i] >= self.max_steps
            final = None
            if terminated or truncated:
                if self.mode is AutoresetMode.SAME_STEP:
                    final = (obs, info)
                    obs, info = env.reset()
                    self.elapsed[i] = 0
                else:
                    self.done[i] = True
            out.append((obs, reward, terminated, truncated, info, final))
        return out


def assert_batch_matches(obs, info, expected_obs, expected_info):
    assert set(info) >= INFO_KEYS
    for i, (o, inf) in enumerate(zip(expected_obs, expected_info, strict=True)):
        assert obs[i].tolist() == o.tolist(), f"board {i}"
        for key in INFO_KEYS:
            got = info[key][i]
            want = inf[key]
            assert (got.tolist() if isinstance(got, np.ndarray) else got) == (
                want.tolist() if isinstance(want, np.ndarray) else want
            ), (i, key)


def run_against_reference(n, steps, mode, max_steps=None, seed=100, rng_seed=0, **options):
    envs = Twenty48VectorEnv(n, autoreset_mode=mode, max_episode_steps=max_steps, **options)
    ref = Reference(n, seed, mode, max_steps, **options)
    obs, info = envs.reset(seed=seed)
    assert_batch_matches(obs, info, [o for o, _ in ref.first], [i for _, i in ref.first])
    rng = np.random.default_rng(rng_seed)
    endings = 0
    for _ in range(steps):
        actions = rng.integers(0, 4, n)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        expected = ref.step(actions)
        assert_batch_matches(obs, info, [e[0] for e in expected], [e[4] for e in expected])
        assert rewards.dtype == np.float64
        assert rewards.tolist() == [e[1] for e in expected]
        assert terminated.tolist() == [e[2] for e in expected]
        assert truncated.tolist() == [e[3] for e in expected]
        finals = [e[5] for e in expected]
        if mode is AutoresetMode.SAME_STEP:
            ended = [f is not None for f in finals]
            if any(ended):
                assert info["_final_obs"].tolist() == ended
                assert info["_final_info"].tolist() == ended
                for i, final in enumerate(finals):
                    if final is None:
                        assert info["final_obs"][i] is None
                        continue
                    assert info["final_obs"][i].tolist() == final[0].tolist()
                    for key in INFO_KEYS:
                        got = info["final_info"][key][i]
                        want = final[1][key]
                        assert np.array_equal(got, want), (i, key)
            else:
                assert "final_obs" not in info
        endings += int((terminated | truncated).sum())
    return endings


@pytest.mark.parametrize("options", OPTION_SETS)
def test_next_step_autoreset_matches_single_envs(options):
    endings = run_against_reference(6, 400, AutoresetMode.NEXT_STEP, **options)
    assert endings >= 6


def test_same_step_autoreset_matches_single_envs():
    assert run_against_reference(5, 400, AutoresetMode.SAME_STEP, rng_seed=1) >= 5
    assert run_against_reference(3, 200, AutoresetMode.SAME_STEP, obs="onehot", max_steps=40) >= 12


def test_truncation_by_max_episode_steps_matches_time_limit():
    assert run_against_reference(4, 130, AutoresetMode.NEXT_STEP, max_steps=25, rng_seed=2) >= 16


def test_vector_api_shapes_and_metadata():
    envs = Twenty48VectorEnv(3, obs="onehot")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_observation_space == gym.spaces.Box(0, 1, (18, 4, 4), np.uint8)
    assert envs.observation_space.shape == (3, 18, 4, 4)
    assert envs.single_action_space == gym.spaces.Discrete(4)
    assert envs.action_space == gym.spaces.MultiDiscrete([4, 4, 4])
    obs, info = envs.reset(seed=0)
    assert obs in envs.observation_space
    assert info["seed"].dtype == np.uint64 and info["action_mask"].shape == (3, 4)
    obs, *_ = envs.step(envs.action_space.sample())
    assert obs in envs.observation_space


def test_make_vec_uses_the_vector_entry_point_and_max_episode_steps():
    envs = gym.make_vec(ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", max_episode_steps=3)
    assert isinstance(envs.unwrapped, Twenty48VectorEnv)
    envs.reset(seed=1)
    truncated = [envs.step(np.full(4, 2))[3].tolist() for _ in range(3)]
    assert truncated == [[False] * 4, [False] * 4, [True] * 4]


def test_seeds_as_a_list_and_per_board_games():
    envs = Twenty48VectorEnv(3)
    obs, info = envs.reset(seed=[5, None, 2**64 - 1])
    assert info["seed"][0] == 5 and info["seed"][2] == 2**64 - 1
    for i in range(3):
        board = Game.new(int(info["seed"][i])).board
        assert envs.board(i) == board
        assert obs[i].tolist() == [[v.bit_length() - 1 if v else 0 for v in row] for row in board.rows]


def test_numpy_integer_seeds_are_game_seeds():
    envs = Twenty48VectorEnv(2)
    assert envs.reset(seed=np.int64(5))[1]["seed"].tolist() == [5, 6]
    assert envs.reset(seed=[np.uint64(7), np.int32(1)])[1]["seed"].tolist() == [7, 1]
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=np.bool_(True))


def test_reset_mask_restarts_only_the_chosen_boards():
    envs = Twenty48VectorEnv(4)
    envs.reset(seed=10)
    for _ in range(5):
        envs.step(np.array([0, 1, 2, 3]))
    *_, info = envs.step(np.array([0, 1, 2, 3]))
    moves = info["moves"].copy()
    before = [envs.board(i) for i in range(4)]
    mask = np.array([False, True, False, True])
    obs, info = envs.reset(seed=50, options={"reset_mask": mask})
    assert info["seed"].tolist() == [10, 51, 12, 53]
    assert envs.board(0) == before[0] and envs.board(2) == before[2]
    assert envs.board(1) == Game.new(51).board and envs.board(3) == Game.new(53).board
    assert info["moves"].tolist() == [moves[0], 0, moves[2], 0]
    assert obs[0].tolist() == [[(v.bit_length() - 1) if v else 0 for v in row] for row in before[0].rows]


def test_disabled_autoreset_requires_an_explicit_reset():
    corner = Board.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4])
    envs = Twenty48VectorEnv(2, autoreset_mode="Disabled", illegal_action="terminate")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.DISABLED
    envs.reset(seed=1, options={"board": corner})
    _, _, terminated, _, _ = envs.step(np.array([Direction.LEFT.index, Direction.RIGHT.index]))
    assert terminated.tolist() == [True, False]
    before = envs.board(1)
    with pytest.raises(ValueError, match="reset_mask"):
        envs.step(np.array([0, 0]))
    assert envs.board(1) == before
    _, info = envs.reset(options={"reset_mask": terminated.copy()})
    assert envs.board(1) == before and info["moves"].tolist() == [0, 1]
    assert envs.board(0) == Game.new(int(info["seed"][0])).board
    envs.step(np.array([0, 0]))


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_big_tiles_in_the_vector_env_match_the_single_env(mode):
    board = Board.from_rows([[32768, 32768, 65536, 2], [4, 0, 0, 0], [0] * 4, [0] * 4])
    for options in ({}, {"obs": "onehot"}):
        reset_options = {"board": board, "score": 7}
        envs = Twenty48VectorEnv(3, autoreset_mode=mode, **options)
        obs, info = envs.reset(seed=21, options=reset_options)
        ref = Reference(3, 21, mode, None, reset_options, **options)
        assert_batch_matches(obs, info, [o for o, _ in ref.first], [i for _, i in ref.first])
        rng = np.random.default_rng(9)
        actions = np.array([Direction.LEFT.index] * 3)
        ended = np.zeros(3, dtype=bool)
        for step in range(300):
            obs, rewards, terminated, _, info = envs.step(actions)
            ended |= terminated
            expected = ref.step(actions)
            assert_batch_matches(obs, info, [e[0] for e in expected], [e[4] for e in expected])
            assert rewards.tolist() == [e[1] for e in expected]
            assert terminated.tolist() == [e[2] for e in expected]
            # 32768 32768 65536 2 -> 65536 65536 2 . -> 131072 2 . . (one merge per tile per move)
            if step < 2:
                assert info["max_tile"].tolist() == [65536 * (step + 1)] * 3
                assert rewards.tolist() == [65536.0 * (step + 1)] * 3
            else:
                actions = rng.integers(0, 4, 3)
        assert ended.all()  # the exact games ended and autoreset replaced them by new games
        assert [envs.board(i).max_tile for i in range(3)] == [ref.envs[i].board.max_tile for i in range(3)]


@pytest.mark.parametrize(
    "actions",
    [
        np.array([0, 1]),
        np.array([0, 1, 4]),
        np.array([0.0, 1.0, 2.0]),
        [[0, 1, 2]],
        np.array([-1, 0, 0]),
        [True, False, True],
        np.array([True, True, True]),
        [True, 0, 1],
        (0, 1, np.bool_(False)),
        [0, np.array(True), 2],
    ],
)
def test_bad_actions_raise_and_change_nothing(actions):
    envs = Twenty48VectorEnv(3)
    envs.reset(seed=4)
    before = ([envs.board(i) for i in range(3)], envs._state.copy())
    with pytest.raises(ValueError, match="actions"):
        envs.step(actions)
    assert [envs.board(i) for i in range(3)] == before[0] and (envs._state == before[1]).all()


@settings(max_examples=40, deadline=None)
@given(
    actions=st.lists(st.integers(0, 3), min_size=3, max_size=3),
    where=st.integers(0, 2),
    flag=st.sampled_from([True, False, np.bool_(True), np.bool_(False), np.array(True)]),
)
def test_a_bool_among_integer_actions_is_refused_like_a_bool_array(actions, where, flag):
    envs = Twenty48VectorEnv(3)
    envs.reset(seed=4)
    before = envs._state.copy()
    actions[where] = flag
    with pytest.raises(ValueError, match=f"actions must be 3 integers 0-3.*bool at index {where}"):
        envs.step(actions)
    assert (envs._state == before).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2, "max_episode_steps": 0}, "max_episode_steps"),
        ({"num_envs": 2, "autoreset_mode": "Sometimes"}, "autoreset_mode"),
        ({"num_envs": 2, "reward": "points"}, "reward"),
    ],
)
def test_bad_constructor_options_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Twenty48VectorEnv(**kwargs)


def test_bad_resets_raise():
    envs = Twenty48VectorEnv(2)
    with pytest.raises(ValueError, match="first reset"):
        envs.reset(options={"reset_mask": np.array([True, False])})
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [True, False]})
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1])
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=2**64 - 1)  # board 1 would get 2**64
    with pytest.raises(ValueError, match="unknown reset option"):
        envs.reset(options={"boards": []})
    assert envs.reset(seed=3)[1]["seed"].tolist() == [3, 4]


@scores_without_room
def test_a_start_score_without_room_for_the_game_is_refused_and_changes_nothing(score):
    envs = Twenty48VectorEnv(3)
    envs.reset(seed=7)
    envs.step(np.array([0, 2, 1]))
    before = (envs.board(0), envs.board(1), envs.board(2), envs._state.copy(), dict(envs._exact))
    board = [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    with pytest.raises(ValueError, match=r"options\['score'\] must be an integer from 0 to"):
        envs.reset(seed=1, options={"board": board, "score": score})
    after = (envs.board(0), envs.board(1), envs.board(2), envs._state.copy(), dict(envs._exact))
    assert after[:3] == before[:3] and (after[3] == before[3]).all() and after[4] == before[4]


def test_the_highest_start_score_plays_on_exactly():
    envs = Twenty48VectorEnv(2)
    board = Board.from_rows([[65536, 65536, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    envs.reset(seed=3, options={"board": board, "score": MAX_START_SCORE})
    _, rewards, _, _, info = envs.step(np.array([2, 3]))
    assert rewards.tolist() == [131072.0, 131072.0]
    assert info["score"].tolist() == [MAX_START_SCORE + 131072] * 2


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        Twenty48VectorEnv(2).step(np.array([0, 0]))


# ---- fitting the RL libraries ----------------------------------------------------------------


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_info_carries_the_key_masks_sync_vector_env_adds(mode):
    n = 3
    sync = gym.vector.SyncVectorEnv([Twenty48Env] * n, autoreset_mode=mode)
    ours = Twenty48VectorEnv(n, autoreset_mode=mode)
    # Left ends these games at once, so the steps after it cover autoreset.
    options = {"board": Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8")}
    _, want = sync.reset(seed=40, options=options)
    _, got = ours.reset(seed=40, options=options)
    rng = np.random.default_rng(3)
    ended = 0
    for step in range(30):
        assert set(got) == set(want), step
        for key, value in want.items():
            if key == "final_obs":
                assert [o is None for o in got[key]] == [o is None for o in value]
            elif key == "final_info":
                assert set(got[key]) == set(value)
                for inner in value:
                    assert got[key][inner].tolist() == value[inner].tolist(), (step, inner)
            else:
                assert got[key].tolist() == value.tolist(), (step, key)
        actions = np.full(n, 2) if step == 0 else rng.integers(0, 4, n)
        *_, terminated, _, want = sync.step(actions)
        *_, got = ours.step(actions)
        ended += int(terminated.sum())
    assert ended >= n


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_action_masks_are_the_legal_moves_and_never_empty_before_a_next_step_reset(mode):
    envs = Twenty48VectorEnv(2, autoreset_mode=mode)
    over_next = Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8")  # left merges the 8s and ends the game
    _, info = envs.reset(seed=1, options={"board": over_next})
    masks = envs.action_masks()
    assert masks.dtype == np.bool_ and masks.tolist() == (info["action_mask"] == 1).tolist()
    assert masks.tolist() == [[False, False, True, True]] * 2
    info["action_mask"][:] = 0  # the caller's copy: changes nothing
    assert envs.action_masks().tolist() == masks.tolist()
    *_, terminated, _, info = envs.step(np.array([2, 0]))
    assert terminated.tolist() == [True, False]
    if mode is AutoresetMode.NEXT_STEP:
        # Board 0's next step is its autoreset, which ignores the action.
        assert info["action_mask"][0].tolist() == [0, 0, 0, 0]
        assert envs.action_masks()[0].tolist() == [True] * 4
        envs.step(np.array([0, 0]))
    assert envs.action_masks()[0].tolist() == (envs.step(np.array([0, 0]))[4]["action_mask"][0] == 1).tolist()
