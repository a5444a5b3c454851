"""Environments on other boards than the 4x4: the single env against gymnasium-2048 at the same size,
and the 5x5 vector env.

Prints one JSON line: for each of 3x3, 5x5 and 6x6, the single env's random-action steps per second
(``Twenty48Env(size=...)``, one-hot channel-last observations, the layout gymnasium-2048 gives) beside
gymnasium-2048's (``TwentyFortyEightEnv(size=...)``, PyPI ``gymnasium-2048`` 0.1.2, measured in the
same run, round by round, so that the ratio holds on a machine whose speed varies) and their ratio;
then the 5x5 vector env's steps per second with 4,096 boards (its slices of games step on every core
the process may use), per second of wall time and per second of CPU time (all its threads' together:
what one core does; on N idle cores the wall figure approaches N times it). The load average is
reported with the figures, since other processes share the machine.

gymnasium-2048 is no dependency of this project: install it beside for this benchmark only
(``pip install gymnasium-2048==0.1.2``); without it that side is skipped (``null``). A step is one
action on one board whatever its outcome; both single envs are measured bare, without ``gym.make``'s
wrappers, and reset when their game ends. Each figure is the best of ``ROUNDS`` rounds: on a shared
machine the best round is the one least disturbed. Compile time is excluded (a warm-up first).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import numpy as np

from twenty48.env import Twenty48Env, Twenty48VectorEnv

SIZES = (3, 5, 6)
OURS_STEPS = 200_000
THEIRS_STEPS = 5_000
VECTOR_SIZE = (5, 5)
VECTOR_BOARDS = 4096
VECTOR_STEPS = 200
ROUNDS = 3


def theirs(size: int) -> Any:
    """gymnasium-2048's env at ``size``, or None when it is not installed."""
    # pygame, which gymnasium-2048 imports, greets on stdout: this benchmark prints one JSON line.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from gymnasium_2048.envs import TwentyFortyEightEnv
    except ImportError:
        return None
    return TwentyFortyEightEnv(size=size)


def single_rate(env: Any, steps: int) -> float:
    """Random-action steps per second of a single env, reset when its game ends."""
    actions = np.random.default_rng(1).integers(0, 4, steps).tolist()
    env.reset(seed=1)
    env.step(0)
    env.reset(seed=1)
    step, reset = env.step, env.reset
    start = time.perf_counter()
    for action in actions:
        if step(action)[2]:
            reset()
    return steps / (time.perf_counter() - start)


def vector_rates() -> tuple[float, float]:
    """(steps per wall second, steps per CPU second) of the vector env."""
    envs = Twenty48VectorEnv(VECTOR_BOARDS, size=VECTOR_SIZE)
    actions = np.random.default_rng(2).integers(0, 4, (VECTOR_STEPS, VECTOR_BOARDS))
    envs.reset(seed=1)
    envs.step(actions[0])
    wall, cpu = time.perf_counter(), time.process_time()
    for batch in actions:
        envs.step(batch)
    steps = VECTOR_STEPS * VECTOR_BOARDS
    rates = steps / (time.perf_counter() - wall), steps / (time.process_time() - cpu)
    envs.close()
    return rates


def main() -> None:
    ours = {size: Twenty48Env(size=(size, size), obs="onehot_last") for size in SIZES}
    other = {size: theirs(size) for size in SIZES}
    best_ours = dict.fromkeys(SIZES, 0.0)
    best_theirs = dict.fromkeys(SIZES, 0.0)
    wall = cpu = 0.0
    for _ in range(ROUNDS):
        for size in SIZES:
            best_ours[size] = max(best_ours[size], single_rate(ours[size], OURS_STEPS))
            if other[size] is not None:
                best_theirs[size] = max(best_theirs[size], single_rate(other[size], THEIRS_STEPS))
        round_wall, round_cpu = vector_rates()
        wall, cpu = max(wall, round_wall), max(cpu, round_cpu)
    single = {}
    for size in SIZES:
        theirs_rate = round(best_theirs[size]) if other[size] is not None else None
        single[f"{size}x{size}"] = {
            "steps_per_s": round(best_ours[size]),
            "gymnasium_2048_steps_per_s": theirs_rate,
            "ratio": round(best_ours[size] / best_theirs[size], 1) if theirs_rate else None,
        }
    print(
        json.dumps(
            {
                "single": single,
                "vector_5x5_steps_per_s": round(wall),
                "vector_5x5_steps_per_cpu_s": round(cpu),
                "vector_boards": VECTOR_BOARDS,
                "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
                "load_average": [round(x, 2) for x in os.getloadavg()],
                "rounds": ROUNDS,
            }
        )
    )


if __name__ == "__main__":
    main()
