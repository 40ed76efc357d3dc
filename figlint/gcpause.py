"""Cyclic garbage collection paused while one input is read.

Reading a paper builds many small objects that all stay alive until the reader
returns (125,000 mentions, sites and records from a 1 MB LaTeX line). CPython's
collector walks every live object again at each full collection, which cost 3 s
of that 7.6 s read and grows with the input. Reference counting still frees
everything that is not a cycle.

What the read keeps (a paper's figures: 380,000 vertex tuples and boxes for the
largest corpus paper) is then frozen (gc.freeze): the collector would walk all of
it at its next collection and find nothing to free, a twentieth of that paper's
run. The next read unfreezes it and collects once, so a batch of papers frees the
cycles an earlier paper left (its figures and their analyses) before reading on.
Process-wide and re-entrant: the outermost pause turns collection back on.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0
_was_enabled = True


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            if _was_enabled and gc.get_freeze_count():
                gc.unfreeze()  # what an earlier read kept: collected now if it is garbage
                gc.collect()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.freeze()
                gc.enable()
