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
from twenty48.rules import MAX_GAIN, MAX_START_SCORE, MAX_TILE, Board, two_largest

OBSERVATIONS = ("exponents", "onehot")
REWARDS = ("score", "log", "zero")
ILLEGAL_ACTIONS = ("noop", "terminate")
#: The exponent of the largest tile a 4x4 board can hold (17: 131072); 0 marks an empty cell.
MAX_TILE_EXPONENT = MAX_TILE.bit_length() - 1
#: One-hot planes: one per exponent, plane 0 for the empty cells.
PLANES = MAX_TILE_EXPONENT + 1
RESET_OPTIONS = frozenset({"board", "score"})


@dataclass(frozen=True, slots=True)
class EnvConfig:
    """How observations, rewards and illegal actions are presented (see ``twenty48.env``)."""

    obs: str = "exponents"
    reward: str = "score"
    illegal_action: str = "noop"
    illegal_penalty: float = 0.0

    def __post_init__(self) -> None:
        _choice("obs", self.obs, OBSERVATIONS)
        _choice("reward", self.reward, REWARDS)
        _choice("illegal_action", self.illegal_action, ILLEGAL_ACTIONS)
        penalty = self.illegal_penalty
        if not is_real(penalty) or not math.isfinite(penalty):
            raise ValueError(f"illegal_penalty must be a finite number, got {penalty!r}")
        if penalty < 0:
            raise ValueError(f"illegal_penalty is subtracted from the reward and must be >= 0, got {penalty}")
        object.__setattr__(self, "illegal_penalty", float(penalty))

    @property
    def onehot(self) -> bool:
        return self.obs == "onehot"

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (PLANES, 4, 4) if self.onehot else (4, 4)

    def observation_space(self) -> spaces.Box:
        high = 1 if self.onehot else MAX_TILE_EXPONENT
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
        settings[0] = (self.reward_code, self.illegal_reward, max_steps or 0, self.terminate_on_illegal)
        return settings


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")


@dataclass(frozen=True, slots=True)
class ResetRequest:
    """A validated ``reset(options=...)``: an optional prepared board and its starting score."""

    board: Board | None = None
    score: int = 0

    @classmethod
    def parse(cls, options: Mapping[str, Any] | None, extra: frozenset[str] = frozenset()) -> ResetRequest:
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
            if not any(board.cells):
                raise ValueError("options['board'] has no tile: no move could ever be legal on it")
            if two_largest(board):
                raise ValueError(f"options['board'] holds two {MAX_TILE} tiles, which no game can reach")
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
