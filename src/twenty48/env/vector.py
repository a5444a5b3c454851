"""``Twenty48VectorEnv``: N games stepped by one compiled kernel (documented in ``twenty48.env``)."""

from __future__ import annotations

import itertools
import operator
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from twenty48 import fast
from twenty48.checks import is_int
from twenty48.compiling import announced
from twenty48.env import exact, grids, kernels, render
from twenty48.env.config import (
    DEFAULT_MAX_ILLEGAL_STREAK,
    EnvConfig,
    ResetRequest,
    chained_seed,
    check_seed,
    consecutive_seeds,
    is_bool,
)
from twenty48.env.single import ACTION_MASKS, RENDER_MODES, afterstates_by_rules
from twenty48.rules import DEFAULT_SIZE, Board, SizeLike

#: Boards from which a vector env of another size than 4x4 steps slices of its games on several cores
#: at once: a step of fewer is over before handing work to threads would pay.
PARALLEL_BOARDS = 1024
#: The info keys, each batched over the boards and accompanied by its ``_key`` mask.
INFO_KEYS = ("action_mask", "score", "max_tile", "moves", "illegal", "seed")
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
        variant: str = "classic",
        end_at_tile: int | None = None,
        max_illegal_streak: int | None = DEFAULT_MAX_ILLEGAL_STREAK,
        max_episode_steps: int | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        size: SizeLike = DEFAULT_SIZE,
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
        self.config = EnvConfig(
            obs, reward, illegal_action, illegal_penalty, variant, end_at_tile, max_illegal_streak, size
        )
        #: Whether the boards play on ``grids`` (every size but the 4x4's bitboard).
        self._grid = self.config.on_grid
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        self.autoreset_mode = mode
        self.metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, "autoreset_mode": mode}
        self.single_observation_space = self.config.observation_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(4)
        self.action_space = batch_space(self.single_action_space, num_envs)

        self._settings = self.config.step_settings(max_episode_steps)
        # One kernels.STATE (grids.STATE) record per game.
        self._state = np.zeros(num_envs, dtype=grids.STATE if self._grid else kernels.STATE)
        # Boards holding a tile above 32768 live here (index -> Board), flagged "exact" in _state.
        self._exact: dict[int, Board] = {}
        self._started = False
        #: The legal moves of every board as ``info["action_mask"]`` last reported them (kept apart
        #: from info, which the caller may modify).
        self._masks = np.zeros((num_envs, 4), dtype=np.bool_)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        #: Threads stepping slices of the games of another size at once (the kernel runs without the
        #: GIL), and the slices: one per core.
        self._pool = (
            ThreadPoolExecutor(cores, thread_name_prefix="twenty48-env")
            if self._grid and cores > 1 and num_envs >= PARALLEL_BOARDS
            else None
        )
        bounds = [num_envs * k // cores for k in range(cores + 1)]
        self._slices = [slice(a, b) for a, b in itertools.pairwise(bounds)]
        with announced("the environment"):
            self._load_kernels()

    def _load_kernels(self) -> None:
        """``Twenty48Env._load_kernels`` for the vector kernels."""
        state = np.zeros(1, dtype=self._state.dtype)
        which = np.zeros(1, dtype=np.intp)
        self._start_games(which, np.zeros(1, dtype=np.uint64), state)
        out = self._outputs(1)
        self._observe(which, out, state)
        self._step_all(np.zeros(1, dtype=np.int64), out, state)
        self._observations(out.exps)
        self._afterstates_of(state)

    # ---- gymnasium API ----------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        n = self.num_envs
        request = ResetRequest.parse(options, self.config.size, extra=frozenset({"reset_mask"}))
        which = self._reset_mask(options)
        explicit = self._reset_seeds(seed)
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        new_seeds = np.empty(len(which), dtype=np.uint64)
        for k, i in enumerate(which):
            chosen = explicit[i]
            if chosen is None:
                chosen = (
                    chained_seed(int(self._state["seed"][i]))
                    if self._started
                    else int(self.np_random.integers(0, 1 << 53))
                )
            new_seeds[k] = chosen
        self.config.check_start(request.board)
        self._start_games(which, new_seeds)
        if request.board is not None:
            if self._grid:
                grids.prepare(self._state, which, request.board, request.score)
            elif exact.prepare(self._state, which, request.board, request.score):
                self._exact.update(dict.fromkeys(which.tolist(), request.board))
        self._started = True

        out = self._outputs(n)
        self._observe(np.arange(n), out)
        for i, board in self._exact.items():
            self._observe_exact(i, board, out)
        info = self._info(out.masks, out.max_tiles, np.zeros(n, dtype=np.bool_))
        return self._observations(out.exps), info

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._check_actions(actions)
        done = self._state["done"]
        if self.autoreset_mode is AutoresetMode.DISABLED and done.any():
            finished = np.flatnonzero(done)
            raise ValueError(
                f"boards {finished[:10].tolist()} finished their episode; with autoreset disabled, reset "
                "them first with reset(options={'reset_mask': mask})"
            )
        out = self._outputs(self.num_envs)
        deferred, left = self._step_all(acts, out)
        if self._exact:
            # Next-step autoreset may have replaced an exact board by a new game.
            for i in [i for i in self._exact if not self._state["exact"][i]]:
                del self._exact[i]
        for i in deferred[:left].tolist():
            self._step_exact(i, int(acts[i]), out)
        info = self._info(out.masks, out.max_tiles, out.illegal)
        if self.autoreset_mode is AutoresetMode.SAME_STEP and self._state["done"].any():
            self._reset_finished(out, info)
        return self._observations(out.exps), out.rewards, out.terminated, out.truncated, info

    def afterstates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``Twenty48Env.afterstates`` for every board, changing nothing: ``(observations,
        rewards, legal)`` of shapes ``(N, 4, *single_observation_space.shape)``, ``(N, 4)`` float64
        and ``(N, 4)`` bool. A board whose episode has just ended under next-step autoreset gives
        its final position's afterstates (its next step starts a new game instead)."""
        if not self._started:
            raise RuntimeError("call reset() before afterstates()")
        return self._afterstates_of(self._state)

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
                game = self._state[i]
                frames.append(render.ansi(board, int(game["score"]), int(game["moves"])))
            else:
                frames.append(render.rgb(exact.exponents(board)))
        return tuple(frames)

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every board, bool[N, 4] (sb3-contrib's ``MaskablePPO`` convention). With
        next-step autoreset a board whose episode has just ended allows all four: its next step
        ignores the action and starts the next game (a row of False would leave a masked policy no
        action to sample)."""
        if not self._started:
            raise RuntimeError("call reset() before action_masks()")
        masks = self._masks.copy()
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            masks[self._state["done"]] = True
        return masks

    # ---- inspection -------------------------------------------------------------------------

    def board(self, index: int) -> Board:
        """The current board of game ``index``."""
        i = operator.index(index)
        if not 0 <= i < self.num_envs:
            raise ValueError(f"index must be 0-{self.num_envs - 1}, got {i}")
        if self._grid:
            size = self.config.size
            return fast.from_grid(self._state["cells"][i][: size.cells], size)
        return self._exact[i] if self._state["exact"][i] else fast.from_bitboard(self._state["board"][i])

    # ---- internals --------------------------------------------------------------------------

    def _check_actions(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers 0-3 (up, down, left, right); "
                f"got shape {acts.shape} of {acts.dtype}"
            )
        # NumPy turns a bool among integers into 0 or 1; only a bool array keeps the bool dtype. A plain
        # int skips is_bool, which would cost a list of 4,096 actions five times its conversion.
        if isinstance(actions, (list, tuple)):
            flagged = next((i for i, a in enumerate(actions) if type(a) is not int and is_bool(a)), None)
            if flagged is not None:
                raise ValueError(
                    f"actions must be {self.num_envs} integers 0-3 (up, down, left, right); "
                    f"got a bool at index {flagged}"
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
            return consecutive_seeds(seed, n)
        if isinstance(seed, (list, tuple)) and len(seed) == n:
            return [None if s is None else check_seed(s) for s in seed]
        raise ValueError(f"seed must be None, an integer or a list of {n} integers or None")

    def _step_exact(self, i: int, action: int, out: kernels.Outputs) -> None:
        """Step game ``i`` with ``twenty48.rules`` (what the kernel deferred)."""
        new, legal, reward, terminated, truncated, _ = exact.step(
            self._state, i, self.board(i), action, self._settings
        )
        if self._state["exact"][i]:
            self._exact[i] = new
        else:
            self._exact.pop(i, None)
        out.rewards[i] = reward
        out.terminated[i] = terminated
        out.truncated[i] = truncated
        out.illegal[i] = not legal
        self._observe_exact(i, new, out)

    @staticmethod
    def _observe_exact(i: int, board: Board, out: kernels.Outputs) -> None:
        out.exps[i] = exact.exponents(board)
        out.masks[i] = ACTION_MASKS[exact.legal_mask(board)]
        out.max_tiles[i] = board.max_tile

    def _start_games(self, which: np.ndarray, new_seeds: np.ndarray, state: np.ndarray | None = None) -> None:
        """New games from ``new_seeds`` on boards ``which`` of ``state`` (the games')."""
        engine = grids if self._grid else kernels
        engine.vector_new_games(self._state if state is None else state, which, new_seeds, self._settings)
        if state is None:
            for i in which.tolist():
                self._exact.pop(i, None)

    def _outputs(self, n: int) -> kernels.Outputs | grids.Outputs:
        if self._grid:
            return grids.Outputs.empty(n, self.config.size.rows, self.config.size.cols)
        return kernels.Outputs.empty(n)

    def _observe(self, which: np.ndarray, out: Any, state: np.ndarray | None = None) -> None:
        """Observations, legal moves and largest tiles of the games ``which`` of ``state`` (the
        games') into ``out``; the bitboard's exact boards are the caller's."""
        if self._grid:
            grids.vector_observe(self._state if state is None else state, which, self._settings, out)
        else:
            kernels.vector_observe(self._state if state is None else state, which, out)

    def _step_all(
        self, acts: np.ndarray, out: Any, state: np.ndarray | None = None
    ) -> tuple[np.ndarray, int]:
        """Step every game of ``state`` (the games'): the games left to ``twenty48.rules`` (the
        first ``left`` of the array), which only the bitboard leaves."""
        next_step = self.autoreset_mode is AutoresetMode.NEXT_STEP
        games = self._state if state is None else state
        deferred = np.empty(len(games), dtype=np.intp)
        if self._grid:
            if self._pool is None or games is not self._state:
                grids.vector_step(games, acts, self._settings, next_step, out)
                return deferred, 0
            steps = [
                self._pool.submit(
                    grids.vector_step,
                    games[part],
                    acts[part],
                    self._settings,
                    next_step,
                    grids.Outputs(*(array[part] for array in out)),
                )
                for part in self._slices
            ]
            for done in steps:
                done.result()
            return deferred, 0
        return deferred, kernels.vector_step(games, acts, self._settings, next_step, out, deferred)

    def _afterstates_of(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        size = self.config.size
        n = len(state)
        exps = np.zeros((n, 4, size.rows, size.cols), dtype=np.uint8)
        rewards, legal = np.zeros((n, 4)), np.zeros((n, 4), dtype=np.bool_)
        if self._grid:
            grids.vector_afterstates(state, self._settings, exps, rewards, legal)
            return self.config.observe(exps), rewards, legal
        deferred = kernels.vector_afterstates(state, self._settings, exps, rewards, legal)
        for i in np.flatnonzero(deferred).tolist():
            directions = [d for d in range(4) if deferred[i] >> d & 1]
            afterstates_by_rules(self.board(i), directions, self._settings, exps[i], rewards[i], legal[i])
        return self.config.observe(exps), rewards, legal

    def _reset_finished(self, out: kernels.Outputs, info: dict[str, Any]) -> None:
        """Same-step autoreset: keep the last observation and info of every finished board in
        ``final_obs`` / ``final_info``, then start its next game in place."""
        finished = self._state["done"].copy()
        which = np.flatnonzero(finished)
        final_planes = self._observations(out.exps[which])
        final_obs = np.full(self.num_envs, None, dtype=object)
        for k, i in enumerate(which.tolist()):
            final_obs[i] = final_planes[k]
        final_info: dict[str, Any] = {}
        for key in INFO_KEYS:
            final_info[key] = info[key].copy()
            final_info[f"_{key}"] = finished.copy()
        seeds = self._state["seed"]
        new_seeds = np.array([chained_seed(int(seeds[i])) for i in which], dtype=np.uint64)
        self._start_games(which, new_seeds)
        self._observe(which, out)
        info.update(self._info(out.masks, out.max_tiles, info["illegal"] & ~finished))
        info["final_obs"] = final_obs
        info["_final_obs"] = finished
        info["final_info"] = final_info
        info["_final_info"] = finished.copy()

    def _observations(self, exps: np.ndarray) -> np.ndarray:
        if not self.config.onehot:
            return exps
        obs = np.empty((exps.shape[0], *self.config.observation_shape), dtype=np.uint8)
        (grids if self._grid else kernels).onehot_from_exponents(exps, self.config.planes(obs))
        return obs

    def _info(self, masks: np.ndarray, max_tiles: np.ndarray, illegal: np.ndarray) -> dict[str, Any]:
        """The batched info, with ``SyncVectorEnv``'s ``_key`` masks (all True: every board has every
        key), so code written for Gymnasium's vector envs reads it unchanged."""
        self._masks[:] = masks
        info: dict[str, Any] = {
            "action_mask": masks,
            "score": self._state["score"].copy(),
            "max_tile": max_tiles,
            "moves": self._state["moves"].copy(),
            "illegal": illegal,
            "seed": self._state["seed"].copy(),
        }
        for key in INFO_KEYS:
            info[f"_{key}"] = np.ones(self.num_envs, dtype=np.bool_)
        return info
