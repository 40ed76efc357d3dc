"""Cyclic garbage collection paused while one input is read.

Reading a paper builds many small objects that all stay alive until the reader
returns (125,000 mentions, sites and records from a 1 MB LaTeX line). CPython's
collector walks every live object again at each full collection, which cost 3 s
of that 7.6 s read and grows with the input. Reference counting still frees
everything that is not a cycle.

What the read keeps (a paper's figures: 380,000 vertex tuples and boxes for the
largest corpus paper) is then frozen (gc.freeze): the collector would walk all of
it at its next collection and find nothing to free, a twentieth of that paper's
run. The next read unfreezes it, and collects the cycles earlier papers left
(their figures and analyses) before reading on, but only once the objects kept
since the last full collection outnumber those it kept: a full collection walks
everything alive, and a process that reads many inputs and keeps their results
(`figlint a.pdf b.pdf ...`, a test session) paid one such walk per input, time
quadratic in the number of inputs (a fifth of reading 165 charts in one process).
Collecting when the kept objects have doubled keeps the total walk linear, as
CPython's own rule for full collections does (it waits for 25 % growth), and the
garbage left uncollected at most about what the process holds.

Counting, not timing: gc.get_count()[0] at the end of a read (collection off) is
how many tracked objects the read added; gc.get_freeze_count() walks the frozen
list, so it is called only after a full collection, which walked it anyway.
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
_frozen = False  # objects frozen by the last read are waiting for the next one
_kept = 0  # objects frozen right after the last full collection
_added = 0  # objects reads have added since then (estimated: collection was off)
_collected = False  # this read began with a full collection


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled, _frozen, _kept, _added, _collected
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            if _was_enabled and _frozen:
                gc.unfreeze()  # what earlier reads kept: collected now if it is garbage
                _frozen = False
                if _added > _kept:
                    gc.collect()
                    _collected = True
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                _added += gc.get_count()[0]
                gc.freeze()
                _frozen = True
                if _collected:
                    _kept, _added, _collected = gc.get_freeze_count(), 0, False
                gc.enable()
