"""Environment throughput: random actions on the bare single env and on a 4,096-board vector env,
beside the raw engine they are built on.

Prints one JSON line: {"env_steps_per_s", "vector_steps_per_s", "engine_moves_per_s", ...}. A step
is one action on one board, whatever its outcome (an illegal action is a step, as in training);
finished games are reset (the single env by ``reset()``, the vector env by its next-step
autoreset). Actions are drawn up front with NumPy so the figure measures the environment, not the
sampler, and compile time is excluded (one warm-up call first). The single env is measured bare,
without ``gym.make``'s checker and order-enforcing wrappers. The engine figure is
``bench/engine.py``'s loop (random directions, a spawn after each legal one, one core), measured in
the same run so that the two can be compared on a machine whose speed varies. Each figure is the
best of ``ROUNDS`` rounds: on a shared machine the best round is the one least disturbed.
"""

from __future__ import annotations

import json
import time

import numpy as np

from twenty48.env import Twenty48Env, Twenty48VectorEnv
from twenty48.fast._playouts import random_play

SINGLE_STEPS = 500_000
VECTOR_BOARDS = 4096
VECTOR_STEPS = 1000
ENGINE_ATTEMPTS = 20_000_000
ROUNDS = 3


def single_rate() -> tuple[float, int]:
    env = Twenty48Env()
    actions = np.random.default_rng(1).integers(0, 4, SINGLE_STEPS).tolist()
    env.reset(seed=1)
    env.step(0)
    env.reset(seed=1)
    episodes = 0
    step, reset = env.step, env.reset
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, _, _ = step(action)
        if terminated:
            reset()
            episodes += 1
    return SINGLE_STEPS / (time.perf_counter() - start), episodes


def vector_rate() -> tuple[float, int]:
    envs = Twenty48VectorEnv(VECTOR_BOARDS)
    actions = np.random.default_rng(2).integers(0, 4, (VECTOR_STEPS, VECTOR_BOARDS))
    envs.reset(seed=1)
    envs.step(actions[0])
    envs.reset(seed=1)
    episodes = 0
    start = time.perf_counter()
    for batch in actions:
        _, _, terminated, _, _ = envs.step(batch)
        episodes += int(terminated.sum())
    return VECTOR_STEPS * VECTOR_BOARDS / (time.perf_counter() - start), episodes


def engine_rate() -> float:
    random_play(1, 1000)  # compile or load from cache
    start = time.perf_counter()
    random_play(1, ENGINE_ATTEMPTS)
    return ENGINE_ATTEMPTS / (time.perf_counter() - start)


def main() -> None:
    single = vector = engine = 0.0
    for _ in range(ROUNDS):
        single_round, single_episodes = single_rate()
        vector_round, vector_episodes = vector_rate()
        single, vector = max(single, single_round), max(vector, vector_round)
        engine = max(engine, engine_rate())
    print(
        json.dumps(
            {
                "env_steps_per_s": round(single),
                "vector_steps_per_s": round(vector),
                "engine_moves_per_s": round(engine),
                "single_steps": SINGLE_STEPS,
                "single_episodes": single_episodes,
                "vector_boards": VECTOR_BOARDS,
                "vector_steps": VECTOR_STEPS,
                "vector_episodes": vector_episodes,
                "engine_attempts": ENGINE_ATTEMPTS,
                "rounds": ROUNDS,
            }
        )
    )


if __name__ == "__main__":
    main()
