"""The collector pause around a read (figlint/gcpause.py): collection is back on after it,
and a cycle a read left behind is freed when the next read starts (a batch of papers does
not keep every earlier paper's cyclic garbage)."""

from __future__ import annotations

import gc
import weakref

from figlint.gcpause import paused


class _Node:
    def __init__(self) -> None:
        self.other = self


def test_collection_back_on_after_nested_pauses():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_cycle_kept_by_one_read_is_freed_when_the_next_starts():
    with paused():
        node = _Node()
        ref = weakref.ref(node)
    del node  # now garbage, but only the collector can free a cycle
    with paused():
        assert ref() is None
    assert gc.isenabled()


def test_disabled_collector_stays_disabled():
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
