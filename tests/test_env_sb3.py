"""Twenty48SB3VecEnv: SB3's VecEnv protocol over the vector env, and a short real MaskablePPO run.

Needs the sb3 extra (stable-baselines3, sb3-contrib, torch); skipped without it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

from twenty48 import Board  # noqa: E402
from twenty48.env import Twenty48Env, Twenty48VectorEnv  # noqa: E402
from twenty48.env.sb3 import Twenty48SB3VecEnv  # noqa: E402

ENDS_ON_LEFT = Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 8 8")


def test_steps_match_the_vector_env_with_same_step_autoreset():
    n = 4
    env = Twenty48SB3VecEnv(n, obs="onehot", max_episode_steps=7)
    twin = Twenty48VectorEnv(n, obs="onehot", max_episode_steps=7, autoreset_mode="SameStep")
    env.seed(11)
    obs = env.reset()
    want, info = twin.reset(seed=11)
    assert (obs == want).all() and obs.shape == (n, 18, 4, 4)
    assert [i["seed"] for i in env.reset_infos] == [11, 12, 13, 14]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(20):
        actions = rng.integers(0, 4, n)
        obs, rewards, dones, infos = env.step(actions)
        want, want_rewards, terminated, truncated, info = twin.step(actions)
        assert (obs == want).all()
        assert rewards.dtype == np.float32 and rewards.tolist() == want_rewards.astype(np.float32).tolist()
        assert dones.tolist() == (terminated | truncated).tolist()
        for i in range(n):
            if not dones[i]:
                assert infos[i] == {}
                continue
            ended += 1
            assert (infos[i]["terminal_observation"] == info["final_obs"][i]).all()
            assert infos[i]["TimeLimit.truncated"] == bool(truncated[i] and not terminated[i])
            assert infos[i]["score"] == info["final_info"]["score"][i]
    assert ended >= n  # every board was truncated at least once


def test_masks_reach_maskable_ppo_through_env_method():
    env = VecMonitor(Twenty48SB3VecEnv(2))
    # Left ends the game unless the spawn is a 4 beside the column's 4: seed 1 spawns a 2.
    env.seed(1)
    env.set_options({"board": ENDS_ON_LEFT})
    env.reset()
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.dtype == np.bool_ and masks.tolist() == [[False, False, True, True]] * 2
    assert env.env_method("action_masks", indices=[1])[0].tolist() == [False, False, True, True]
    _, _, dones, infos = env.step(np.array([2, 3]))
    assert dones.tolist() == [True, False]
    assert "episode" in infos[0] and infos[0]["terminal_observation"].shape == (4, 4)
    # The finished board already plays its next game: its masks are that game's.
    assert get_action_masks(env)[0].any()
    with pytest.raises(AttributeError, match="vector_env"):
        env.env_method("render")


def test_bad_use_is_refused():
    with pytest.raises(ValueError, match="autoreset"):
        Twenty48SB3VecEnv(2, autoreset_mode="NextStep")
    env = Twenty48SB3VecEnv(2)
    env.set_options([{"board": ENDS_ON_LEFT}, {}])
    with pytest.raises(ValueError, match="same options"):
        env.reset()
    with pytest.raises(RuntimeError, match="step_async"):
        env.step_wait()


def _refusal(call, **kwargs):
    with pytest.raises(ValueError) as refused:
        call(**kwargs)
    return str(refused.value)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(max_value=-1) | st.integers(min_value=2**64 - 2))
@example(seed=-1)
@example(seed=2**64 - 2)  # board 2 would get 2**64
def test_a_seed_no_board_can_take_is_refused_at_once_as_the_vector_env_refuses_it(seed):
    env = Twenty48SB3VecEnv(3)
    env.seed(11)
    message = _refusal(env.seed, seed=seed)
    assert message == _refusal(Twenty48VectorEnv(3).reset, seed=seed)
    # The seeds of the last good seed() stand: the next reset starts boards 11, 12, 13.
    env.reset()
    assert env.last_info["seed"].tolist() == [11, 12, 13]


@pytest.mark.parametrize("seed", [True, False, np.bool_(True), 5.0, "7"])
def test_a_seed_that_is_no_integer_is_refused_at_once_as_reset_refuses_it(seed):
    env = Twenty48SB3VecEnv(2)
    env.seed(11)
    assert _refusal(env.seed, seed=seed) == _refusal(Twenty48Env().reset, seed=seed)
    env.reset()
    assert env.last_info["seed"].tolist() == [11, 12]


def test_seeds_are_game_seeds_and_none_still_draws_one():
    env = Twenty48SB3VecEnv(2)
    assert env.seed(np.uint64(2**64 - 2)) == [2**64 - 2, 2**64 - 1]
    env.reset()
    assert env.last_info["seed"].tolist() == [2**64 - 2, 2**64 - 1]
    first, second = env.seed(None)
    assert second == first + 1


@pytest.mark.slow
def test_maskable_ppo_trains_without_ever_playing_an_illegal_move():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class CountIllegal(BaseCallback):
        illegal = 0

        def _on_step(self) -> bool:
            self.illegal += int(self.training_env.unwrapped.last_info["illegal"].sum())
            return True

    env = VecMonitor(Twenty48SB3VecEnv(16, obs="onehot", reward="log"), info_keywords=("score",))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=2, seed=0)
    counter = CountIllegal()
    model.learn(16 * 64 * 2, callback=counter)
    assert model.num_timesteps == 16 * 64 * 2
    assert counter.illegal == 0
    assert model.ep_info_buffer and all(e["score"] > 0 for e in model.ep_info_buffer)


def test_the_adapter_sets_torch_to_one_thread_unless_told_otherwise():
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        Twenty48SB3VecEnv(2)
        assert torch.get_num_threads() == 1
        Twenty48SB3VecEnv(2, torch_threads=2)
        assert torch.get_num_threads() == 2
        torch.set_num_threads(3)
        Twenty48SB3VecEnv(2, torch_threads=None)
        assert torch.get_num_threads() == 3
        for wrong in (0, -1, 1.5, True, "2"):
            with pytest.raises(ValueError, match="torch_threads"):
                Twenty48SB3VecEnv(2, torch_threads=wrong)
    finally:
        torch.set_num_threads(before)
