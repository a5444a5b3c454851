"""Gymnasium environments for 2048, exact to the official rules and fast.

``Twenty48Env`` is one game; ``Twenty48VectorEnv`` steps N games in one compiled call. Importing
this module registers ``twenty48/Twenty48-v0`` (single and vector entry points), so either works::

    import gymnasium as gym
    env = gym.make("twenty48.env:twenty48/Twenty48-v0")      # imports this module first
    envs = gym.make_vec("twenty48.env:twenty48/Twenty48-v0", num_envs=4096,
                        vectorization_mode="vector_entry_point")

Gymnasium is the optional extra ``rl``: ``pip install 'twenty48[rl]'``.

Spaces
    Action: ``Discrete(4)``, in ``Direction`` order: 0 up, 1 down, 2 left, 3 right (an integer,
    Python's or NumPy's; a bool is refused). ``action_masks()`` gives the legal ones, bool[4], as
    sb3-contrib's ``MaskablePPO`` expects (``env.unwrapped.action_masks()`` through ``gym.make``'s
    wrappers, or their ``get_wrapper_attr("action_masks")``).
    Observation (``obs="exponents"``, the default): ``Box(0, 17, (4, 4), uint8)``, the exponent of
    each tile (0 empty, 1 for 2, ..., 11 for 2048, 17 for 131072). ``obs="onehot"``:
    ``Box(0, 1, (18, 4, 4), uint8)``, plane k marking the cells that hold 2**k (plane 0: empty).

Rewards (``reward=``)
    ``"score"`` (default): the points the move scored, i.e. the sum of the tiles its merges made,
    as an exact float. The score is an int64; a game can add at most ``2**25`` points to any board
    (``config.MAX_GAIN``), and a prepared start score is bounded to leave that room, so nothing
    overflows.
    ``"log"``: ``log2(1 + points)``. ``"zero"``: always 0, for agents that shape their own.

Illegal actions (a direction that changes nothing)
    By default a no-op, as the rules say: the board, score and move count stay, no tile spawns,
    the reward is 0 and ``info["illegal"]`` is True. ``illegal_penalty=p`` makes that reward
    ``-p``; ``illegal_action="terminate"`` also ends the episode (``terminated=True``).

Episode end
    ``terminated`` is True when no move is legal (game over), or on an illegal action with
    ``illegal_action="terminate"``. ``truncated`` is only ever set by a step limit:
    ``gym.make(..., max_episode_steps=N)`` (Gymnasium's ``TimeLimit``) or the vector env's
    ``max_episode_steps``; every step counts, illegal ones included.

Info (every reset and step)
    ``action_mask`` (int8[4], 1 = legal), ``score`` (points so far), ``max_tile`` (the largest
    tile, e.g. 2048), ``moves`` (legal moves since reset), ``illegal`` (the step's action was
    illegal; False after reset) and ``seed`` (the game seed of the episode).

Seeding and replay
    Spawns come from ``twenty48.spawns``, exactly as in ``Game``: ``reset(seed=s)`` starts
    ``Game.new(s)``, and the episode replays move for move with ``Game.replay(s, actions)`` (or by
    calling ``Game.move`` with each action index's ``Direction.from_index``); illegal actions are
    no-ops in both. ``s`` is the game seed, so it must lie in [0, 2**64). A reset without a seed
    continues a deterministic chain: the next game seed is ``spawns.draw(previous, 2**32) >> 11``
    (53 bits); the very first unseeded reset draws one from ``np_random``. ``info["seed"]`` always
    names the game seed, so any episode can be replayed from ``(info["seed"], actions)``.

    ``reset(options={"board": board, "score": 0})`` starts from a prepared position (a ``Board``
    or 4x4 tile values, e.g. one holding 65536 or 131072) with a score from 0 to
    ``config.MAX_START_SCORE`` (``2**63 - 1 - 2**25``; a larger one is refused); it replays as
    ``Game.from_board(board, seed=info["seed"], score=score)``. Boards above 32768 and merges of
    two 32768 tiles are played by ``twenty48.rules`` instead of the bitboard, so every tile up to
    131072 is exact.

Rendering
    ``render_mode="ansi"``: the board as text with score and moves. ``"rgb_array"``: a 460x460
    RGB picture in the original game's colours, numbers drawn with a built-in pixel font.

Vector environment
    ``Twenty48VectorEnv(num_envs, ..., max_episode_steps=None, autoreset_mode="NextStep")`` takes
    the same options; observations, rewards (float64), ``terminated`` and ``truncated`` are
    batched, and info holds the same keys as arrays of length N (``seed`` is uint64), each with
    its ``_key`` mask as ``SyncVectorEnv`` adds them (all True: every board reports every key).
    ``action_masks()`` gives every board's legal actions, bool[N, 4]. ``reset(seed=s)`` seeds board i
    with ``s + i`` (a list gives each board its seed); ``options["reset_mask"]`` (bool[N]) resets
    only some boards. Autoreset modes (``metadata["autoreset_mode"]``):

    * ``NextStep`` (default, Gymnasium's): the step that ends an episode returns its last
      observation; the next ``step`` ignores that board's action and returns the first
      observation of its next game with reward 0, ``terminated`` and ``truncated`` False.
      Until then ``action_masks()`` allows all four actions for that board (any is ignored).
    * ``SameStep``: the ending step already returns the next game's first observation and info;
      the last ones are in ``info["final_obs"]`` (object array, None elsewhere) and
      ``info["final_info"]``, marked by ``info["_final_obs"]`` / ``info["_final_info"]``.
    * ``Disabled``: finished boards must be reset with ``reset(options={"reset_mask": mask})``
      before the next step; stepping one raises ValueError.

    Autoreset games continue each board's seed chain, so board i of a vector env seeded with
    ``s`` plays exactly the episodes of a ``Twenty48Env`` reset with ``s + i`` and then without
    a seed.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "twenty48.env needs gymnasium: install the rl extra, pip install 'twenty48[rl]'"
    ) from exc

from twenty48.env.single import Twenty48Env
from twenty48.env.vector import Twenty48VectorEnv

ENV_ID = "twenty48/Twenty48-v0"

__all__ = ["ENV_ID", "Twenty48Env", "Twenty48VectorEnv"]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="twenty48.env.single:Twenty48Env",
        vector_entry_point="twenty48.env.vector:Twenty48VectorEnv",
    )
