"""What every process of the game server does once its app is built, whether ``2048 serve`` runs one
process or ``--workers N``: keep the garbage collector off its permanent objects, and load the solver
in the background so that the first hint does not wait for it."""

from __future__ import annotations

import gc
import threading


def prepare_process() -> None:
    """Tune the collector now and warm the solver in a daemon thread."""
    tune_garbage_collector()
    threading.Thread(target=_warm_solver, name="twenty48-warm-solver", daemon=True).start()


def tune_garbage_collector() -> None:
    """Keep the cyclic collector off the server's permanent objects.

    Modules, the app and the compiled solver (numba brings some 140,000 objects) live as long as
    the process, yet every full collection walked them: under load, collections cost as much time
    as the requests themselves and made the slowest answers. Frozen objects are never walked again,
    and collecting young objects less often costs less in total.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _warm_solver() -> None:
    # Imported in this thread: loading the solver (numba) takes seconds, which the server does not
    # wait for before it answers.
    from twenty48.ai import warm_up

    warm_up()
    # What the solver built lives as long as the process: out of the collector's way too.
    gc.freeze()
