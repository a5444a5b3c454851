"""The first run's compile: said where it happens, and only when numba really compiles; every kernel
cached where the user can write."""

from __future__ import annotations

import importlib
import io
import os
import pkgutil
import sys

import numpy as np
from numba import njit
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

import twenty48
from twenty48.compiling import announced


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_compile_is_announced_with_its_end_and_a_cached_kernel_is_not():
    @njit  # not cached: it compiles once per process, here
    def twice(x: np.int64) -> np.int64:
        return x * 2

    said = io.StringIO()
    with announced("the test kernel", stream=said):
        assert twice(np.int64(4)) == 8
    lines = said.getvalue().splitlines()
    assert lines[0] == "twenty48: preparing the test kernel, first run only…"
    assert lines[-1].startswith("twenty48: the test kernel ready after ")
    assert lines[-1].endswith(" s (1 kernel compiled)")
    quiet = io.StringIO()
    with announced("the test kernel", stream=quiet):
        assert twice(np.int64(5)) == 10
    assert quiet.getvalue() == ""


def test_on_a_terminal_the_notice_is_one_line_and_nested_ones_say_nothing():
    @njit
    def thrice(x: np.int64) -> np.int64:
        return x * 3

    said = Terminal()
    with announced("the outer part", live=True, stream=said), announced("the inner part", stream=said):
        assert thrice(np.int64(2)) == 6
    text = said.getvalue()
    assert "inner" not in text and text.count("\n") == 1
    assert text.startswith("twenty48: preparing the outer part, first run only…\r\x1b[K")


def test_every_kernel_is_cached_where_the_user_can_write():
    for module in pkgutil.walk_packages(twenty48.__path__, "twenty48."):
        if module.name.startswith(("twenty48.web", "twenty48.tui", "twenty48.commands", "twenty48.__main__")):
            continue  # no kernel there (and __main__ would run the command)
        try:
            importlib.import_module(module.name)
        except ImportError:
            continue  # an optional extra that is not installed (twenty48.env.sb3's torch)
    kernels = [
        value
        for name, module in list(sys.modules.items())
        if name.startswith("twenty48.")
        for value in vars(module).values()
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name
    ]
    assert len(kernels) > 40
    for kernel in kernels:
        assert not isinstance(kernel._cache, NullCache), f"{kernel.py_func.__qualname__} is not cached"
        path = kernel._cache._cache_path
        assert os.access(path, os.W_OK), f"{kernel.py_func.__qualname__} caches in {path}"
