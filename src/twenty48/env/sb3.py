"""Stable-Baselines3 and sb3-contrib: ``Twenty48SB3VecEnv``, the vector env as an SB3 ``VecEnv``.

SB3's algorithms take their own ``VecEnv`` interface, not Gymnasium's ``VectorEnv``. This adapter
steps all boards in the one compiled call of ``Twenty48VectorEnv`` (same-step autoreset, which is
what SB3 expects) and speaks SB3's protocol: ``reset()`` returns only observations, ``step`` returns
``(obs, rewards float32, dones, infos)`` with one dict per board, and an ending board's dict holds
``terminal_observation`` and ``TimeLimit.truncated`` beside its final ``score``, ``max_tile``,
``moves`` and ``seed``. The other boards' dicts are empty: building 4,096 full dicts a step would cost
more than the step; the batched info of the last reset or step is ``last_info``.
``env_method("action_masks")`` gives each board's legal actions, which is how sb3-contrib's
``MaskablePPO`` asks for them::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from twenty48.env.sb3 import Twenty48SB3VecEnv

    env = VecMonitor(Twenty48SB3VecEnv(256, obs="onehot", reward="log"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=4096, n_epochs=4, learning_rate=1e-3, seed=0)
    model.learn(700_000)  # under a minute on 2 cores: mean score 1,106 -> 2,173 (bench/ppo.py)

The adapter sets ``torch.set_num_threads(1)`` when it is made (``torch_threads=1``): the small
networks these recipes train spend more time handing work between torch's threads than computing,
and the recipe above ran 5.5 times slower with torch's default (one thread per core, 2 cores).
``torch_threads=N`` sets N, ``torch_threads=None`` leaves torch's setting alone (a large network on
many cores).

Needs the optional extra ``sb3``: ``pip install 'twenty48[sb3]'`` (it brings torch).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import gymnasium as gym
    import torch
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "twenty48.env.sb3 needs stable-baselines3: install the sb3 extra, pip install 'twenty48[sb3]'"
    ) from exc

from twenty48.checks import is_int
from twenty48.env.config import consecutive_seeds
from twenty48.env.vector import INFO_KEYS, Twenty48VectorEnv

#: The method SB3 calls per board through ``env_method``.
_PER_BOARD_METHODS = ("action_masks",)


class Twenty48SB3VecEnv(VecEnv):
    """``num_envs`` boards of ``Twenty48VectorEnv`` (same options: ``obs``, ``reward``,
    ``illegal_action``, ``illegal_penalty``, ``variant``, ``end_at_tile``, ``max_illegal_streak``,
    ``max_episode_steps``, ``render_mode``) as an SB3 ``VecEnv``; ``torch_threads`` is torch's
    thread count to set (see the module; None leaves it alone).

    ``seed(s)`` (as SB3's ``model = Algo(..., seed=s)`` calls it) makes the next reset start board i
    from game seed ``s + i``, so training runs replay exactly as the vector env's do."""

    def __init__(
        self, num_envs: int, render_mode: str | None = None, *, torch_threads: int | None = 1, **options: Any
    ) -> None:
        if "autoreset_mode" in options:
            raise ValueError("SB3 expects same-step autoreset; Twenty48SB3VecEnv sets autoreset_mode itself")
        if torch_threads is not None and (not is_int(torch_threads) or torch_threads < 1):
            raise ValueError(f"torch_threads must be a positive integer or None, got {torch_threads!r}")
        self.vector_env = Twenty48VectorEnv(num_envs, render_mode, autoreset_mode="SameStep", **options)
        if torch_threads is not None:
            torch.set_num_threads(int(torch_threads))
        #: The batched info (see ``twenty48.env``) of the last reset or step.
        self.last_info: dict[str, Any] = {}
        self._actions: np.ndarray | None = None
        super().__init__(
            num_envs, self.vector_env.single_observation_space, self.vector_env.single_action_space
        )

    # ---- SB3's VecEnv -----------------------------------------------------------------------

    def reset(self) -> VecEnvObs:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        first = self._options[0]
        if any(options != first for options in self._options):
            raise ValueError("every board of a Twenty48SB3VecEnv resets with the same options")
        obs, info = self.vector_env.reset(seed=seeds, options=first or None)
        self._reset_seeds()
        self._reset_options()
        self.last_info = info
        self.reset_infos = [_board_info(info, i) for i in range(self.num_envs)]
        return obs

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Board i starts from game seed ``seed + i`` at the next reset; without a seed SB3 draws one.
        Refused at once, as the vector env's reset refuses it, when a board's seed is no game seed:
        SB3 would take True for 1 and leave -1 to fail at the next reset."""
        if seed is None:
            return super().seed(None)
        self._seeds = consecutive_seeds(seed, self.num_envs)
        return self._seeds

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() needs a step_async(actions) first")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.vector_env.step(actions)
        self.last_info = info
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_info" in info:
            final = info["final_info"]
            for i in np.flatnonzero(info["_final_obs"]).tolist():
                board = _board_info(final, i)
                board["terminal_observation"] = info["final_obs"][i]
                board["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                infos[i] = board
        return obs, rewards.astype(np.float32), terminated | truncated, infos

    def close(self) -> None:
        self.vector_env.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.vector_env.render_mode != "rgb_array":
            return [None] * self.num_envs
        frames = self.vector_env.render()
        assert frames is not None
        return [np.asarray(frame) for frame in frames]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute, once per board: the boards share one environment object."""
        value = getattr(self.vector_env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if indices is not None and list(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError("the boards share one environment object: set an attribute on all of them")
        setattr(self.vector_env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name not in _PER_BOARD_METHODS:
            raise AttributeError(
                f"Twenty48SB3VecEnv answers {', '.join(_PER_BOARD_METHODS)} per board; call "
                f"{method_name} on .vector_env, which holds every board"
            )
        masks = self.vector_env.action_masks(*method_args, **method_kwargs)
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        # The boards are no Gymnasium environments of their own, so no wrapper holds one.
        return [False for _ in self._get_indices(indices)]

    def action_masks(self) -> np.ndarray:
        """Every board's legal actions, bool[N, 4]."""
        return self.vector_env.action_masks()


def _board_info(info: dict[str, Any], i: int) -> dict[str, Any]:
    """Board ``i``'s entries of a batched info as plain Python values (the mask stays int8[4])."""
    board: dict[str, Any] = {key: info[key][i].item() for key in INFO_KEYS if key != "action_mask"}
    board["action_mask"] = info["action_mask"][i].copy()
    return board
