"""``Twenty48Env``: one game of 2048 as a Gymnasium environment (documented in ``twenty48.env``)."""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from twenty48 import fast
from twenty48.env import exact, kernels, render
from twenty48.env.config import EnvConfig, ResetRequest, chained_seed, check_seed
from twenty48.rules import Board

RENDER_MODES = ("ansi", "rgb_array")
#: Legal-move mask -> info["action_mask"] (copied on use: users may keep and modify what we return).
ACTION_MASKS = tuple(np.array([(m >> d) & 1 for d in range(4)], dtype=np.int8) for m in range(16))
TILES = tuple(1 << e if e else 0 for e in range(18))


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
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        self.config = EnvConfig(obs, reward, illegal_action, illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = self.config.observation_space()
        self.action_space = spaces.Discrete(4)
        self._shape = self.config.observation_shape
        self._kernel = kernels.step_onehot if self.config.onehot else kernels.step_exponents
        self._illegal_reward = self.config.illegal_reward
        self._terminate_on_illegal = self.config.terminate_on_illegal
        # [bitboard, game seed, next spawn index], the compiled kernel's view of the game.
        self._state = np.zeros(3, dtype=np.uint64)
        # The board while it holds a tile the bitboard cannot (65536 or 131072), else None.
        self._exact: Board | None = None
        self._seed: int | None = None
        self._score = 0
        self._moves = 0
        self._legal = 0

    # ---- the game, for replay and inspection ----------------------------------------------

    @property
    def board(self) -> Board:
        """The current board."""
        self._require_reset()
        return self._exact if self._exact is not None else fast.from_bitboard(self._state[kernels.BOARD])

    @property
    def game_seed(self) -> int:
        """The seed the current episode's spawns come from (also ``info["seed"]``)."""
        self._require_reset()
        assert self._seed is not None
        return self._seed

    @property
    def score(self) -> int:
        return self._score

    @property
    def moves(self) -> int:
        """Legal moves since the last reset (the spawn index of the next one is ``2 + moves``)."""
        return self._moves

    # ---- gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        request = ResetRequest.parse(options)
        game_seed = None if seed is None else check_seed(seed)
        super().reset(seed=seed)
        if game_seed is None:
            if self._seed is None:
                game_seed = int(self.np_random.integers(0, 1 << 53))
            else:
                game_seed = chained_seed(self._seed)
        if request.board is None:
            bits: np.uint64 | None = fast.new_board(np.uint64(game_seed))
            self._exact = None
        else:
            bits = exact.pack(request.board)
            self._exact = None if bits is not None else request.board
        self._state[:] = (0 if bits is None else bits, game_seed, 2)
        self._seed = game_seed
        self._score = request.score
        self._moves = 0
        obs, self._legal, max_tile = self._observe()
        return obs, self._info(max_tile, illegal=False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        try:
            a = operator.index(action)
        except TypeError:
            a = -1
        if not 0 <= a < 4:
            raise ValueError(f"action must be an integer 0-3 (up, down, left, right), got {action!r}")
        self._require_reset()
        if self._exact is None:
            obs = np.empty(self._shape, dtype=np.uint8)
            outcome, points, legal, max_exponent = self._kernel(self._state, a, obs)
            max_tile = TILES[max_exponent]
            if outcome == kernels.RULES:
                outcome, points = self._play_exact(a)
                obs, legal, max_tile = self._observe()
        else:
            outcome, points = self._play_exact(a)
            obs, legal, max_tile = self._observe()
        self._legal = legal
        if outcome == kernels.LEGAL:
            self._score += int(points)
            self._moves += 1
            reward = self.config.reward_for(points)
            illegal = False
        else:
            reward = self._illegal_reward
            illegal = True
        terminated = legal == 0 or (illegal and self._terminate_on_illegal)
        return obs, reward, terminated, False, self._info(max_tile, illegal)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode; create the environment with "
                'render_mode="ansi" or "rgb_array"'
            )
            return None
        board = self.board
        if self.render_mode == "ansi":
            return render.ansi(board, self._score, self._moves)
        return render.rgb(exact.exponents(board))

    # ---- internals --------------------------------------------------------------------------

    def _require_reset(self) -> None:
        if self._seed is None:
            raise RuntimeError("call reset() before using the environment")

    def _play_exact(self, action: int) -> tuple[int, int]:
        """Play ``action`` with ``twenty48.rules`` (tiles above 32768): (outcome, points)."""
        board = self.board
        seed, index = int(self._state[kernels.SEED]), int(self._state[kernels.SPAWN_INDEX])
        new, points, legal = exact.play(board, action, seed, index)
        if not legal:
            return kernels.ILLEGAL, 0
        bits = exact.pack(new)
        self._exact = None if bits is not None else new
        self._state[kernels.BOARD] = 0 if bits is None else bits
        self._state[kernels.SPAWN_INDEX] = index + 1
        return kernels.LEGAL, points

    def _observe(self) -> tuple[np.ndarray, int, int]:
        """(observation, legal mask, max tile) of the current board."""
        if self._exact is not None:
            grid = exact.exponents(self._exact)
            obs = exact.onehot(grid) if self.config.onehot else grid
            return obs, exact.legal_mask(self._exact), self._exact.max_tile
        bits = self._state[kernels.BOARD]
        obs = np.empty(self._shape, dtype=np.uint8)
        if self.config.onehot:
            kernels.write_onehot(bits, obs)
        else:
            kernels.write_exponents(bits, obs)
        legal, max_exponent = kernels.describe(bits)
        return obs, legal, TILES[max_exponent]

    def _info(self, max_tile: int, illegal: bool) -> dict[str, Any]:
        return {
            "action_mask": ACTION_MASKS[self._legal].copy(),
            "score": self._score,
            "max_tile": max_tile,
            "moves": self._moves,
            "illegal": illegal,
            "seed": self._seed,
        }
