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
    ``Box(0, 1, (18, 4, 4), uint8)``, plane k marking the cells that hold 2**k (plane 0: empty),
    channel first; ``obs="onehot_last"``: the same planes channel last, ``Box(0, 1, (4, 4, 18),
    uint8)`` (what TensorFlow/Keras and JAX convolutions take by default).

Variants (``variant=``)
    ``"classic"`` (default), or ``"merge"``: Merge 2048's spawns, whose values follow the largest
    tile (``twenty48.variants``), drawn exactly as ``Game.new(seed, "merge")`` draws them. The
    actions stay the four whole-board moves: Merge 2048's single-tile moves are not in the space.

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
    ``terminated`` is True when no move is legal (game over), on an illegal action with
    ``illegal_action="terminate"``, and, with ``end_at_tile=N`` (a tile value from 8 to 131072),
    once a tile of N or more is on the board (``end_at_tile=2048``: the episode ends with the win;
    a prepared start already holding one is refused). ``truncated`` is set by a step limit,
    ``gym.make(..., max_episode_steps=N)`` (Gymnasium's ``TimeLimit``) or the vector env's
    ``max_episode_steps`` (every step counts, illegal ones included; none by default, since a
    strong agent's game lasts tens of thousands of moves), and by illegal actions in a row:
    ``max_illegal_streak`` of them (default 100; ``None`` turns it off), so that an agent stuck on
    a move that changes nothing does not play one episode forever.

Afterstates
    ``env.afterstates()`` (and the vector env's, one row per board) gives what each of the four
    actions would do before its spawn, changing nothing: ``(observations, rewards, legal)``, the
    observation of the board after the move (the afterstate of TD learning and n-tuple networks;
    an illegal move's is the board itself), the reward the step would get and which moves are
    legal. A step then adds only its spawn to its action's afterstate.

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

Compiled kernels
    Making an environment loads the compiled kernels its options use; the first time after
    installing (or for options not used before) numba compiles them, 5 to 30 s, and the
    environment says so on standard error (``twenty48.compiling``). Later runs load them from
    numba's cache in well under a second.

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
