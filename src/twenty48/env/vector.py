"""``Twenty48VectorEnv``: N games stepped by one compiled kernel (documented in ``twenty48.env``)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from twenty48 import fast
from twenty48.checks import is_int
from twenty48.env import exact, kernels, render
from twenty48.env.config import PLANES, EnvConfig, ResetRequest, chained_seed, check_seed
from twenty48.env.single import ACTION_MASKS, RENDER_MODES
from twenty48.rules import Board

_AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)


class Twenty48VectorEnv(VectorEnv):
    """``num_envs`` independent games of 2048 with the options of ``Twenty48Env``, plus
    ``max_episode_steps`` (per-board truncation) and ``autoreset_mode``."""

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        *,
        obs: str = "exponents",
        reward: str = "score",
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
        max_episode_steps: int | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        if max_episode_steps is not None and (not is_int(max_episode_steps) or max_episode_steps < 1):
            raise ValueError(
                f"max_episode_steps must be a positive integer or None, got {max_episode_steps!r}"
            )
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(repr(m.value) for m in _AUTORESET_MODES)
            raise ValueError(f"autoreset_mode must be one of {names}, got {autoreset_mode!r}") from None
        self.config = EnvConfig(obs, reward, illegal_action, illegal_penalty)
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        self.autoreset_mode = mode
        self.metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, "autoreset_mode": mode}
        self.single_observation_space = self.config.observation_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(4)
        self.action_space = batch_space(self.single_action_space, num_envs)

        n = num_envs
        self._boards = np.zeros(n, dtype=np.uint64)
        self._seeds = np.zeros(n, dtype=np.uint64)
        self._moves = np.zeros(n, dtype=np.int64)
        self._scores = np.zeros(n, dtype=np.int64)
        self._steps = np.zeros(n, dtype=np.int64)
        # Boards holding a tile above 32768 live in _exact (index -> Board) and are flagged here.
        self._rules = np.zeros(n, dtype=np.bool_)
        self._exact: dict[int, Board] = {}
        # The episode ended at the board's last step (next-step autoreset resets it on the next).
        self._done = np.zeros(n, dtype=np.bool_)
        self._started = False

    # ---- gymnasium API ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        n = self.num_envs
        request = ResetRequest.parse(options, extra=frozenset({"reset_mask"}))
        which = self._reset_mask(options)
        explicit = self._reset_seeds(seed)
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        new_seeds = np.empty(len(which), dtype=np.uint64)
        for k, i in enumerate(which):
            chosen = explicit[i]
            if chosen is None:
                chosen = (
                    chained_seed(int(self._seeds[i]))
                    if self._started
                    else int(self.np_random.integers(0, 1 << 53))
                )
            new_seeds[k] = chosen
        self._start_games(which, new_seeds)
        if request.board is not None:
            bits = exact.pack(request.board)
            if bits is None:
                self._rules[which] = True
                self._exact.update(dict.fromkeys(which.tolist(), request.board))
            else:
                self._boards[which] = bits
            self._scores[which] = request.score
        self._started = True

        exps = np.empty((n, 4, 4), dtype=np.uint8)
        masks = np.empty((n, 4), dtype=np.int8)
        max_tiles = np.empty(n, dtype=np.int64)
        kernels.vector_observe(self._boards, self._rules, exps, masks, max_tiles)
        for i, board in self._exact.items():
            self._observe_exact(i, board, exps, masks, max_tiles)
        info = self._info(masks, max_tiles, np.zeros(n, dtype=np.bool_))
        return self._observations(exps), info

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._check_actions(actions)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._done.any():
            finished = np.flatnonzero(self._done)
            raise ValueError(
                f"boards {finished[:10].tolist()} finished their episode; with autoreset disabled, reset "
                "them first with reset(options={'reset_mask': mask})"
            )
        n = self.num_envs
        exps = np.empty((n, 4, 4), dtype=np.uint8)
        rewards = np.empty(n, dtype=np.float64)
        terminated = np.empty(n, dtype=np.bool_)
        truncated = np.empty(n, dtype=np.bool_)
        illegal = np.empty(n, dtype=np.bool_)
        masks = np.empty((n, 4), dtype=np.int8)
        max_tiles = np.empty(n, dtype=np.int64)
        deferred = np.empty(n, dtype=np.bool_)
        left = kernels.vector_step(
            acts,
            self._boards,
            self._seeds,
            self._moves,
            self._scores,
            self._steps,
            self._rules,
            self._done,
            exps,
            rewards,
            terminated,
            truncated,
            illegal,
            masks,
            max_tiles,
            deferred,
            self.config.reward_code,
            self.config.illegal_reward,
            self.config.terminate_on_illegal,
            self.max_episode_steps or 0,
            self.autoreset_mode is AutoresetMode.NEXT_STEP,
        )
        if self._exact:
            # Next-step autoreset may have replaced an exact board by a new game.
            for i in [i for i in self._exact if not self._rules[i]]:
                del self._exact[i]
        if left:
            outputs = (exps, rewards, terminated, truncated, illegal, masks, max_tiles)
            for i in np.flatnonzero(deferred).tolist():
                self._step_exact(i, int(acts[i]), *outputs)
        info = self._info(masks, max_tiles, illegal)
        if self.autoreset_mode is AutoresetMode.SAME_STEP and self._done.any():
            self._reset_finished(exps, masks, max_tiles, info)
        return self._observations(exps), rewards, terminated, truncated, info

    def render(self) -> tuple[str | np.ndarray, ...] | None:
        """One frame per board, as ``SyncVectorEnv`` does."""
        if self.render_mode is None:
            logger.warn('render() needs render_mode="ansi" or "rgb_array"')
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        frames: list[str | np.ndarray] = []
        for i in range(self.num_envs):
            board = self.board(i)
            if self.render_mode == "ansi":
                frames.append(render.ansi(board, int(self._scores[i]), int(self._moves[i])))
            else:
                frames.append(render.rgb(exact.exponents(board)))
        return tuple(frames)

    # ---- inspection -------------------------------------------------------------------------

    def board(self, index: int) -> Board:
        """The current board of game ``index``."""
        i = operator.index(index)
        if not 0 <= i < self.num_envs:
            raise ValueError(f"index must be 0-{self.num_envs - 1}, got {i}")
        return self._exact[i] if self._rules[i] else fast.from_bitboard(self._boards[i])

    # ---- internals --------------------------------------------------------------------------

    def _check_actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers 0-3 (up, down, left, right); "
                f"got shape {acts.shape} of {acts.dtype}"
            )
        acts = acts.astype(np.int64, copy=False)
        if ((acts < 0) | (acts > 3)).any():
            bad = acts[(acts < 0) | (acts > 3)]
            raise ValueError(f"actions must be 0-3 (up, down, left, right); got {bad[:10].tolist()}")
        return acts

    def _reset_mask(self, options: dict[str, Any] | None) -> np.ndarray:
        """The indices of the boards a reset starts again."""
        if not options or "reset_mask" not in options:
            return np.arange(self.num_envs)
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a numpy bool array of shape ({self.num_envs},)")
        if not self._started and not mask.all():
            raise ValueError("the first reset starts every board; options['reset_mask'] must be all True")
        return np.flatnonzero(mask)

    def _reset_seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        """Per-board game seeds: an int seeds board i with seed + i, a list seeds each board."""
        n = self.num_envs
        if seed is None:
            return [None] * n
        if is_int(seed):
            first = check_seed(seed)
            check_seed(first + n - 1)
            return [first + i for i in range(n)]
        if isinstance(seed, (list, tuple)) and len(seed) == n:
            return [None if s is None else check_seed(s) for s in seed]
        raise ValueError(f"seed must be None, an integer or a list of {n} integers or None")

    def _step_exact(
        self,
        i: int,
        action: int,
        exps: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray,
        illegal: np.ndarray,
        masks: np.ndarray,
        max_tiles: np.ndarray,
    ) -> None:
        """Step board ``i`` with ``twenty48.rules`` (what the kernel deferred), same bookkeeping."""
        board = self.board(i)
        self._steps[i] += 1
        new, points, legal = exact.play(board, action, int(self._seeds[i]), 2 + int(self._moves[i]))
        if legal:
            self._moves[i] += 1
            self._scores[i] += points
            rewards[i] = self.config.reward_for(points)
        else:
            rewards[i] = self.config.illegal_reward
        illegal[i] = not legal
        bits = exact.pack(new)
        if bits is None:
            self._exact[i] = new
            self._rules[i] = True
        else:
            self._exact.pop(i, None)
            self._rules[i] = False
            self._boards[i] = bits
        self._observe_exact(i, new, exps, masks, max_tiles)
        terminated[i] = not masks[i].any() or (not legal and self.config.terminate_on_illegal)
        truncated[i] = self.max_episode_steps is not None and self._steps[i] >= self.max_episode_steps
        self._done[i] = terminated[i] or truncated[i]

    @staticmethod
    def _observe_exact(
        i: int, board: Board, exps: np.ndarray, masks: np.ndarray, max_tiles: np.ndarray
    ) -> None:
        exps[i] = exact.exponents(board)
        legal = exact.legal_mask(board)
        masks[i] = ACTION_MASKS[legal]
        max_tiles[i] = board.max_tile

    def _start_games(self, which: np.ndarray, new_seeds: np.ndarray) -> None:
        """New games from ``new_seeds`` on boards ``which``, all on the bitboard."""
        kernels.vector_new_games(
            which, new_seeds, self._boards, self._seeds, self._moves, self._scores, self._steps, self._rules
        )
        for i in which.tolist():
            self._exact.pop(i, None)
        self._done[which] = False

    def _reset_finished(
        self, exps: np.ndarray, masks: np.ndarray, max_tiles: np.ndarray, info: dict[str, Any]
    ) -> None:
        """Same-step autoreset: keep the last observation and info of every finished board in
        ``final_obs`` / ``final_info``, then start its next game in place."""
        finished = self._done.copy()
        which = np.flatnonzero(finished)
        final_exps = exps[which]
        final_planes = self._observations(final_exps)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for k, i in enumerate(which.tolist()):
            final_obs[i] = final_planes[k]
        final_info: dict[str, Any] = {}
        for key, value in info.items():
            final_info[key] = value.copy()
            final_info[f"_{key}"] = finished.copy()
        new_seeds = np.array([chained_seed(int(self._seeds[i])) for i in which], dtype=np.uint64)
        self._start_games(which, new_seeds)
        kernels.vector_observe(self._boards, ~finished, exps, masks, max_tiles)
        info.update(self._info(masks, max_tiles, info["illegal"] & ~finished))
        info["final_obs"] = final_obs
        info["_final_obs"] = finished
        info["final_info"] = final_info
        info["_final_info"] = finished.copy()

    def _observations(self, exps: np.ndarray) -> np.ndarray:
        if not self.config.onehot:
            return exps
        planes = np.empty((exps.shape[0], PLANES, 4, 4), dtype=np.uint8)
        kernels.onehot_from_exponents(exps, planes)
        return planes

    def _info(self, masks: np.ndarray, max_tiles: np.ndarray, illegal: np.ndarray) -> dict[str, Any]:
        return {
            "action_mask": masks,
            "score": self._scores.copy(),
            "max_tile": max_tiles,
            "moves": self._moves.copy(),
            "illegal": illegal,
            "seed": self._seeds.copy(),
        }
