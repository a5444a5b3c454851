"""``Twenty48Env``: one game of 2048 as a Gymnasium environment (documented in ``twenty48.env``)."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from twenty48 import fast
from twenty48.compiling import announced
from twenty48.env import exact, grids, kernels, render
from twenty48.env.config import (
    DEFAULT_MAX_ILLEGAL_STREAK,
    EnvConfig,
    ResetRequest,
    chained_seed,
    check_seed,
    is_bool,
)
from twenty48.rules import DEFAULT_SIZE, Board, SizeLike

RENDER_MODES = ("ansi", "rgb_array")
#: Legal-move mask -> info["action_mask"] (copied on use: users may keep and modify what we return).
ACTION_MASKS = tuple(np.array([(m >> d) & 1 for d in range(4)], dtype=np.int8) for m in range(16))
#: Legal-move mask -> ``action_masks()`` (bool, as sb3-contrib's MaskablePPO expects).
BOOL_MASKS = tuple(mask.astype(np.bool_) for mask in ACTION_MASKS)
#: Exponent -> tile, for every exponent of every size (a 6x6 board's tiles reach 2**37).
TILES = tuple(1 << e if e else 0 for e in range(grids.CELL_BYTES + 2))
#: The single env's game is record 0 of its state array.
_ALL = np.zeros(1, dtype=np.intp)


class Twenty48Env(gym.Env[np.ndarray, np.int64]):
    """2048 by the official rules: see ``twenty48.env`` for spaces, rewards, options and seeding."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        obs: str = "exponents",
        reward: str = "score",
        illegal_action: str = "noop",
        illegal_penalty: float = 0.0,
        variant: str = "classic",
        end_at_tile: int | None = None,
        max_illegal_streak: int | None = DEFAULT_MAX_ILLEGAL_STREAK,
        size: SizeLike = DEFAULT_SIZE,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        self.config = EnvConfig(
            obs, reward, illegal_action, illegal_penalty, variant, end_at_tile, max_illegal_streak, size
        )
        self.render_mode = render_mode
        self.observation_space = self.config.observation_space()
        self.action_space = spaces.Discrete(4)
        # Copied for every observation (a copy is cheaper than np.empty).
        self._blank = np.zeros(self.config.observation_shape, dtype=np.uint8)
        #: The board's kernels: the bitboard's on the 4x4, ``grids``' on every other size.
        self._grid = self.config.on_grid
        engine = grids if self._grid else kernels
        self._kernel = engine.step_onehot if self.config.onehot else engine.step_exponents
        # No step limit here (gym.make's TimeLimit truncates the single env), only the illegal streak.
        self._settings = self.config.step_settings()
        self._staged = bool(self._settings["staged_spawns"][0])
        # The game, as the compiled kernels see it: one record of kernels.STATE (grids.STATE). The
        # kernel gets it and the settings as plain words (see twenty48.env.kernels).
        self._state = np.zeros(1, dtype=engine.STATE)
        self._words = self._state.view(np.uint64)
        self._setting_words = self._settings.view(np.uint64)
        # The board while it holds a tile the bitboard cannot (65536 or 131072), else None.
        self._exact: Board | None = None
        self._started = False
        #: The current board's legal moves as a 4-bit mask (bit d: direction d), for ``action_masks``.
        self._legal = 0
        with announced("the environment"):
            self._load_kernels()

    def _load_kernels(self) -> None:
        """Run every kernel this environment's options use once, on a scratch game: numba loads
        them (the first run after installing compiles them, which ``announced`` says) now, not in
        the middle of the first episode."""
        state = np.zeros(1, dtype=self._state.dtype)
        self._restart(state, 0)
        self._write_observation(state, self._blank.copy())
        self._kernel(state.view(np.uint64), 0, self._setting_words, self.config.planes(self._blank.copy()))
        self._afterstates_of(state)

    # ---- the game, for replay and inspection ----------------------------------------------

    @property
    def board(self) -> Board:
        """The current board."""
        self._require_reset()
        if self._exact is not None:
            return self._exact
        if self._grid:
            return fast.from_grid(self._state["cells"][0][: self.config.size.cells], self.config.size)
        return fast.from_bitboard(self._state["board"][0])

    @property
    def game_seed(self) -> int:
        """The seed the current episode's spawns come from (also ``info["seed"]``)."""
        self._require_reset()
        return int(self._state["seed"][0])

    @property
    def score(self) -> int:
        return int(self._state["score"][0])

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current board, bool[4] (sb3-contrib's ``MaskablePPO`` calls this);
        the same as ``info["action_mask"]``. All False once the game is over."""
        self._require_reset()
        return BOOL_MASKS[self._legal].copy()

    @property
    def moves(self) -> int:
        """Legal moves since the last reset (the spawn index of the next one is
        ``spawns.STARTING_TILES + moves``)."""
        return int(self._state["moves"][0])

    # ---- gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        request = ResetRequest.parse(options, self.config.size)
        game_seed = None if seed is None else check_seed(seed)
        # Gymnasium's seeding takes only Python ints; the game seed is one, and equals a NumPy seed.
        super().reset(seed=game_seed)
        if game_seed is None:
            if self._started:
                game_seed = chained_seed(self.game_seed)
            else:
                game_seed = int(self.np_random.integers(0, 1 << 53))
        self.config.check_start(request.board)
        self._restart(self._state, game_seed)
        self._exact = None
        if request.board is not None:
            if self._grid:
                grids.prepare(self._state, _ALL, request.board, request.score)
            elif exact.prepare(self._state, _ALL, request.board, request.score):
                self._exact = request.board
        self._started = True
        obs, legal, max_tile = self._observe()
        return obs, _info(legal, max_tile, False, self.score, self.moves, game_seed)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if is_bool(action):
            a = -1
        else:
            try:
                a = operator.index(action)
            except TypeError:
                a = -1
        if not 0 <= a < 4:
            raise ValueError(f"action must be an integer 0-3 (up, down, left, right), got {action!r}")
        if not self._started:
            self._require_reset()
        if self._exact is None:
            obs = self._blank.copy()
            outcome, reward, terminated, truncated, legal, max_exponent, score, moves, seed = self._kernel(
                self._words, a, self._setting_words, self.config.planes(obs)
            )
            if outcome != kernels.RULES:
                self._legal = legal
                info = _info(legal, TILES[max_exponent], outcome == kernels.ILLEGAL, score, moves, seed)
                return obs, reward, terminated, truncated, info
        new, legal_move, reward, terminated, truncated, _ = exact.step(
            self._state, 0, self.board, a, self._settings
        )
        self._exact = new if self._state["exact"][0] else None
        obs, legal, max_tile = self._observe()
        info = _info(legal, max_tile, not legal_move, self.score, self.moves, self.game_seed)
        return obs, reward, terminated, truncated, info

    def afterstates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What each action would do before its spawn, for afterstate learning (TD, n-tuple
        networks), changing nothing: ``(observations, rewards, legal)``, the observation of the
        board after each move (shape ``(4, *observation_space.shape)``, in action order; an illegal
        move's is the board itself), the reward that step would get, float64[4], and which moves
        are legal, bool[4]. The step then only adds the spawn to the afterstate of its action."""
        self._require_reset()
        if self._exact is not None:
            return self._afterstates_by_rules(self._exact, range(4), *self._blank_afterstates())
        return self._afterstates_of(self._state)

    def _afterstates_of(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``afterstates`` of the game in ``state`` (a bitboard's, or a grid's)."""
        exps, rewards, legal = self._blank_afterstates()
        if self._grid:
            grids.afterstates(state, 0, self._settings, exps, rewards, legal)
            return self.config.observe(exps), rewards, legal
        bits = state["board"][0]
        options = self._settings[0]
        deferred = kernels.afterstates_of(
            np.uint64(bits),
            int(options["reward_mode"]),
            float(options["illegal_reward"]),
            exps,
            rewards,
            legal,
        )
        if deferred:
            board = fast.from_bitboard(bits)
            return self._afterstates_by_rules(
                board, [d for d in range(4) if deferred >> d & 1], exps, rewards, legal
            )
        return self.config.observe(exps), rewards, legal

    def _blank_afterstates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        size = self.config.size
        exps = np.zeros((4, size.rows, size.cols), dtype=np.uint8)
        return exps, np.zeros(4), np.zeros(4, dtype=np.bool_)

    def _afterstates_by_rules(
        self,
        board: Board,
        directions: Iterable[int],
        exps: np.ndarray,
        rewards: np.ndarray,
        legal: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``afterstates``, the ``directions`` the bitboard cannot play played by ``twenty48.rules``."""
        afterstates_by_rules(board, directions, self._settings, exps, rewards, legal)
        return self.config.observe(exps), rewards, legal

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode; create the environment with "
                'render_mode="ansi" or "rgb_array"'
            )
            return None
        board = self.board
        if self.render_mode == "ansi":
            return render.ansi(board, self.score, self.moves)
        return render.rgb(exact.exponents(board))

    # ---- internals --------------------------------------------------------------------------

    def _require_reset(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before using the environment")

    def _observe(self) -> tuple[np.ndarray, int, int]:
        """(observation, legal mask, max tile) of the current board; remembers the legal mask."""
        if self._exact is not None:
            obs = self.config.observe(exact.exponents(self._exact))
            self._legal = exact.legal_mask(self._exact)
            return obs, self._legal, self._exact.max_tile
        obs = self._blank.copy()
        legal, max_exponent = self._write_observation(self._state, obs)
        self._legal = legal
        return obs, legal, TILES[max_exponent]

    def _restart(self, state: np.ndarray, seed: int) -> None:
        """Start ``Game.new(seed)`` (of this size and variant) in ``state``."""
        if self._grid:
            grids.restart(state, 0, np.uint64(seed), self._settings)
        else:
            kernels.restart(state, 0, np.uint64(seed), self._staged)

    def _write_observation(self, state: np.ndarray, obs: np.ndarray) -> tuple[int, np.int64]:
        """Write the observation of the game in ``state`` into ``obs``: (legal mask, max exponent)."""
        engine = grids if self._grid else kernels
        board = state["cells"][0][: self.config.size.cells] if self._grid else state["board"][0]
        if self.config.onehot:
            engine.write_onehot(board, self.config.planes(obs))
        else:
            engine.write_exponents(board, obs)
        return grids.describe(state, 0, self._settings) if self._grid else kernels.describe(board)


def afterstates_by_rules(
    board: Board,
    directions: Iterable[int],
    settings: np.ndarray,
    exps: np.ndarray,
    rewards: np.ndarray,
    legal: np.ndarray,
) -> None:
    """Write the afterstates of ``board`` toward ``directions`` (exponents, rewards, legality) as
    ``kernels.afterstates_of`` does, with ``twenty48.rules`` (tiles above 32768, merges of two)."""
    options = settings[0]
    for d in directions:
        exps[d], points, legal[d] = exact.afterstate(board, d)
        rewards[d] = (
            kernels.reward_of(points, int(options["reward_mode"])) if legal[d] else options["illegal_reward"]
        )


def _info(legal: int, max_tile: int, illegal: bool, score: int, moves: int, seed: int) -> dict[str, Any]:
    """A step's or reset's ``info`` (documented in ``twenty48.env``); the counters arrive as Python
    ints (numba boxes the kernel's int64 and uint64 results as int)."""
    return {
        "action_mask": ACTION_MASKS[legal].copy(),
        "score": score,
        "max_tile": max_tile,
        "moves": moves,
        "illegal": illegal,
        "seed": seed,
    }
