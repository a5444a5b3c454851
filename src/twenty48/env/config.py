"""The environment options both environments share, validated once, and what follows from them."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from twenty48 import spawns
from twenty48.checks import is_int, is_real
from twenty48.env import kernels
from twenty48.rules import DEFAULT_SIZE, MAX_GAIN, MAX_START_SCORE, MAX_TILE, Board, BoardSize, two_largest
from twenty48.variants import CLASSIC, MERGE

OBSERVATIONS = ("exponents", "onehot", "onehot_last")
REWARDS = ("score", "log", "zero")
ILLEGAL_ACTIONS = ("noop", "terminate")
#: The variants an environment plays: both, with whole-board moves only (Merge 2048's single-tile
#: moves are no action of the Discrete(4) space).
ENV_VARIANTS = (CLASSIC.name, MERGE.name)
#: Illegal actions in a row after which an episode is truncated, unless told otherwise: an agent
#: that keeps choosing a move that changes nothing never ends its episode by itself. Playing
#: uniformly at random, a hundred in a row happen less than once in 10**12 steps.
DEFAULT_MAX_ILLEGAL_STREAK = 100
#: The smallest ``end_at_tile``: every game starts with 2s and 4s, so a smaller one ends no step.
SMALLEST_END_TILE = 8
#: The exponent of the largest tile a 4x4 board can hold (17: 131072); 0 marks an empty cell. A
#: board of another size has its own (``EnvConfig.max_exponent``: R*C + 1).
MAX_TILE_EXPONENT = MAX_TILE.bit_length() - 1
#: One-hot planes of the 4x4: one per exponent, plane 0 for the empty cells (``EnvConfig.plane_count``).
PLANES = MAX_TILE_EXPONENT + 1
RESET_OPTIONS = frozenset({"board", "score"})
#: The axes that put the last one (channels) before the last two (rows, columns), by ndim.
_CHANNELS_FIRST = {ndim: (*range(ndim - 3), ndim - 1, ndim - 3, ndim - 2) for ndim in range(3, 6)}


@dataclass(frozen=True, slots=True)
class EnvConfig:
    """How the game is played and how observations, rewards, illegal actions and episode ends are
    presented (see ``twenty48.env``)."""

    obs: str = "exponents"
    reward: str = "score"
    illegal_action: str = "noop"
    illegal_penalty: float = 0.0
    variant: str = CLASSIC.name
    end_at_tile: int | None = None
    max_illegal_streak: int | None = DEFAULT_MAX_ILLEGAL_STREAK
    #: The board: ``(rows, cols)``, ``"RxC"`` or a ``BoardSize``, each side 2-6.
    size: BoardSize = DEFAULT_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", BoardSize.of(self.size))
        _choice("obs", self.obs, OBSERVATIONS)
        _choice("reward", self.reward, REWARDS)
        _choice("illegal_action", self.illegal_action, ILLEGAL_ACTIONS)
        _choice("variant", self.variant, ENV_VARIANTS)
        penalty = self.illegal_penalty
        if not is_real(penalty) or not math.isfinite(penalty):
            raise ValueError(f"illegal_penalty must be a finite number, got {penalty!r}")
        if penalty < 0:
            raise ValueError(f"illegal_penalty is subtracted from the reward and must be >= 0, got {penalty}")
        object.__setattr__(self, "illegal_penalty", float(penalty))
        end = self.end_at_tile
        largest = self.size.max_tile
        if end is not None and (
            not is_int(end) or end not in self.size.tile_values or end < SMALLEST_END_TILE
        ):
            on = "" if self.size == DEFAULT_SIZE else f" on a {self.size} board"
            raise ValueError(
                f"end_at_tile must be None or a tile value from {SMALLEST_END_TILE} to {largest}{on} "
                f"(a power of two), got {end!r}"
            )
        streak = self.max_illegal_streak
        if streak is not None and (not is_int(streak) or not 1 <= streak <= np.iinfo(np.int64).max):
            raise ValueError(f"max_illegal_streak must be a positive integer or None, got {streak!r}")
        # NumPy's integers as Python's, which the settings record and bit_length take.
        for name in ("end_at_tile", "max_illegal_streak"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def onehot(self) -> bool:
        """One plane per tile value, channel first or last."""
        return self.obs != "exponents"

    @property
    def channels_last(self) -> bool:
        return self.obs == "onehot_last"

    @property
    def on_grid(self) -> bool:
        """Whether the board plays on ``twenty48.env.grids`` (every size but the 4x4's bitboard)."""
        return self.size != DEFAULT_SIZE

    @property
    def max_exponent(self) -> int:
        """The exponent of the largest tile the board can hold: R*C + 1 (17 on the 4x4)."""
        return self.size.max_tile.bit_length() - 1

    @property
    def plane_count(self) -> int:
        """One-hot planes: one per exponent, plane 0 for the empty cells (``PLANES`` on the 4x4)."""
        return self.max_exponent + 1

    @property
    def observation_shape(self) -> tuple[int, ...]:
        grid = (self.size.rows, self.size.cols)
        if not self.onehot:
            return grid
        return (*grid, self.plane_count) if self.channels_last else (self.plane_count, *grid)

    def planes(self, obs: np.ndarray) -> np.ndarray:
        """The channel-first view of one-hot observations ``obs`` (themselves when channel first),
        for the kernels that write planes: writing into it fills ``obs``."""
        # ndarray.transpose, not np.moveaxis: a single env's step takes this view, and moveaxis (in
        # Python) cost more than the rest of a one-hot step.
        return obs.transpose(_CHANNELS_FIRST[obs.ndim]) if self.channels_last else obs

    def observe(self, exps: np.ndarray) -> np.ndarray:
        """Observations of exponent grids ``exps`` (shape ``(..., R, C)``), outside the kernels."""
        if not self.onehot:
            return exps.astype(np.uint8)
        every = np.arange(self.plane_count, dtype=np.uint8)[:, None, None]
        planes = (exps[..., None, :, :] == every).astype(np.uint8)
        return np.ascontiguousarray(np.moveaxis(planes, -3, -1)) if self.channels_last else planes

    def observation_space(self) -> spaces.Box:
        high = 1 if self.onehot else self.max_exponent
        return spaces.Box(0, high, self.observation_shape, np.uint8)

    @property
    def reward_code(self) -> int:
        return (kernels.REWARD_SCORE, kernels.REWARD_LOG, kernels.REWARD_ZERO)[REWARDS.index(self.reward)]

    @property
    def terminate_on_illegal(self) -> bool:
        return self.illegal_action == "terminate"

    @property
    def illegal_reward(self) -> float:
        # 0.0, not -0.0, when there is no penalty.
        return -self.illegal_penalty if self.illegal_penalty else 0.0

    def step_settings(self, max_steps: int | None = None) -> np.ndarray:
        """What the kernels' bookkeeping needs (one ``kernels.SETTINGS`` record), with episodes
        truncated after ``max_steps`` steps."""
        settings = np.zeros(1, dtype=kernels.SETTINGS)
        settings[0] = (
            self.reward_code,
            self.illegal_reward,
            max_steps or 0,
            self.max_illegal_streak or 0,
            self.end_at_tile.bit_length() - 1 if self.end_at_tile else 0,
            self.size.rows,
            self.size.cols,
            self.terminate_on_illegal,
            self.variant == MERGE.name,
        )
        return settings

    def check_start(self, board: Board | None) -> None:
        """Refuse a prepared ``board`` that already holds the tile the episode ends at."""
        if board is not None and self.end_at_tile and board.max_tile >= self.end_at_tile:
            raise ValueError(
                f"options['board'] already holds a tile of {self.end_at_tile} or more, which ends the "
                f"episode (end_at_tile={self.end_at_tile}) before its first step"
            )


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")


@dataclass(frozen=True, slots=True)
class ResetRequest:
    """A validated ``reset(options=...)``: an optional prepared board and its starting score."""

    board: Board | None = None
    score: int = 0

    @classmethod
    def parse(
        cls,
        options: Mapping[str, Any] | None,
        size: BoardSize = DEFAULT_SIZE,
        extra: frozenset[str] = frozenset(),
    ) -> ResetRequest:
        """The request in ``options`` of an environment whose board is of ``size``."""
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            raise ValueError(f"options must be a dict, got {type(options).__name__}")
        unknown = set(options) - RESET_OPTIONS - extra
        if unknown:
            names = ", ".join(sorted(map(str, unknown)))
            known = ", ".join(sorted(RESET_OPTIONS | extra))
            raise ValueError(f"unknown reset option(s) {names}; known: {known}")
        board = options.get("board")
        if board is not None:
            board = board if isinstance(board, Board) else Board.from_rows(board)
            if board.size != size:
                raise ValueError(
                    f"options['board'] is {board.size}, this environment plays {size} ({size.rows} rows "
                    f"of {size.cols})"
                )
            if not any(board.cells):
                raise ValueError("options['board'] has no tile: no move could ever be legal on it")
            if two_largest(board):
                raise ValueError(f"options['board'] holds two {size.max_tile} tiles, which no game can reach")
        score = options.get("score", 0)
        if not is_int(score) or not 0 <= score <= MAX_START_SCORE:
            raise ValueError(
                f"options['score'] must be an integer from 0 to {MAX_START_SCORE} (2**63 - 1 less the "
                f"{MAX_GAIN} points a game can still score), got {score!r}"
            )
        if score and board is None:
            raise ValueError("options['score'] sets the score of a prepared board; pass options['board'] too")
        return cls(board, int(score))


def is_bool(value: object) -> bool:
    """A bool, Python's or NumPy's, or a bool array: Python takes True for 1 ("down"), but no caller
    who passes one means a direction."""
    return isinstance(value, (bool, np.bool_)) or getattr(value, "dtype", None) == np.bool_


def check_seed(seed: object) -> int:
    """A reset seed is used as the game seed, so it must be one (an integer in [0, 2**64))."""
    if isinstance(seed, np.integer):
        seed = int(seed)
    return spawns.check_seed(seed)


def consecutive_seeds(seed: object, n: int) -> list[int]:
    """The game seeds ``seed``, ``seed + 1``, ... of ``n`` boards; every one must be a game seed."""
    first = check_seed(seed)
    check_seed(first + n - 1)
    return [first + i for i in range(n)]


def chained_seed(seed: int) -> int:
    """The game seed a reset without ``seed`` uses after a game played with ``seed``."""
    return int(kernels.next_seed(np.uint64(seed)))
