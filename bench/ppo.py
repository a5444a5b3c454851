"""The MaskablePPO minute of docs/rl.md: how much sb3-contrib's MaskablePPO learns on the vector env.

Needs the sb3 extra. Measures the policy's mean final score over a fixed set of games (the same seeds
before and after, actions sampled from the policy as in training), trains for `--steps` environment
steps, measures again. Prints one JSON line: mean_score_before / _after, steps, train_seconds,
steps_per_s.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

from twenty48.env.sb3 import Twenty48SB3VecEnv


def make_model(envs: int, seed: int) -> MaskablePPO:
    """docs/rl.md's configuration: many boards per step (SB3's per-step overhead is shared by all of
    them), short rollouts, few epochs over large batches, a small network and a brisk learning rate."""
    env = VecMonitor(Twenty48SB3VecEnv(envs, obs="onehot", reward="log"), info_keywords=("score",))
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=4096,
        n_epochs=4,
        learning_rate=1e-3,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
    )


def mean_score(model: MaskablePPO, games: int, seed: int) -> float:
    """Each of `games` boards plays one game with actions sampled from the policy."""
    env = Twenty48SB3VecEnv(games, obs="onehot", reward="log")
    env.seed(seed)
    obs = env.reset()
    scores = np.full(games, -1.0)
    while (scores < 0).any():
        actions, _ = model.predict(obs, action_masks=env.action_masks())
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones & (scores < 0)).tolist():
            scores[i] = infos[i]["score"]
    return float(scores.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--envs", type=int, default=256, help="boards stepped together")
    parser.add_argument("--steps", type=int, default=700_000, help="environment steps to train")
    parser.add_argument("--games", type=int, default=500, help="games per measurement")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    model = make_model(args.envs, args.seed)
    before = mean_score(model, args.games, seed=10**6)
    start = time.perf_counter()
    model.learn(args.steps)
    seconds = time.perf_counter() - start
    after = mean_score(model, args.games, seed=10**6)
    print(
        json.dumps(
            {
                "mean_score_before": round(before),
                "mean_score_after": round(after),
                "steps": model.num_timesteps,
                "train_seconds": round(seconds, 1),
                "steps_per_s": round(model.num_timesteps / seconds),
            }
        )
    )


if __name__ == "__main__":
    main()
