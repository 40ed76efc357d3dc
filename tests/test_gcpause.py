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


class _FullCollections:
    """Counts the collector's full (oldest-generation) collections while it is open."""

    def __enter__(self):
        self.n = 0
        gc.callbacks.append(self._seen)
        return self

    def _seen(self, phase, info):
        if phase == "start" and info["generation"] == 2:
            self.n += 1

    def __exit__(self, *exc):
        gc.callbacks.remove(self._seen)


def _read_keeping(kept: list, n: int) -> None:
    """One read that builds `n` objects and keeps them (as a run keeps its results)."""
    with paused():
        kept.append([[k] for k in range(n)])


def test_cycle_left_by_a_read_is_freed_by_a_later_read():
    """Once the reads after it have added as many objects as the process kept at the last
    full collection, the next read starts with one: the cycle is gone then, not later."""
    kept: list = []
    _read_keeping(kept, 1000)
    with paused():
        node = _Node()
        ref = weakref.ref(node)
    del node  # now garbage, but only the collector can free a cycle
    held = gc.get_freeze_count()  # everything alive is frozen between reads
    reads = 0
    with _FullCollections() as full:
        while not full.n:
            _read_keeping(kept, 200_000)
            reads += 1
            assert reads <= 2 + held // 200_000, "no full collection came"
    assert ref() is None
    assert gc.isenabled()


def test_many_reads_keeping_their_results_make_few_full_collections():
    """A process that reads many inputs and keeps every result (`figlint a.pdf b.pdf ...`)
    collected everything alive at each read: time quadratic in the inputs. Now a full
    collection comes only when the objects kept have doubled: logarithmically few."""
    kept: list = []
    _read_keeping(kept, 1000)
    with _FullCollections() as full:
        for _ in range(64):
            _read_keeping(kept, 20_000)
    assert full.n <= 8, full.n
    assert gc.isenabled()


def test_disabled_collector_stays_disabled():
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_rules_run_with_the_collector_paused(tmp_path):
    """engine.lint_path pauses it from the read through the last rule, and turns it back on."""
    from figlint.config import Config
    from figlint.engine import lint_path
    from figlint.rules.registry import Rule

    seen: list[bool] = []

    def check(paper, ctx):
        seen.append(gc.isenabled())
        return []

    probe = Rule("FL199", "collector-probe", "note", check, scope="paper")
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\nText.\n\\end{document}\n")
    assert gc.isenabled()
    result = lint_path(str(tmp_path / "main.tex"), Config(), [probe])
    assert result.error is None
    assert seen == [False]
    assert gc.isenabled()
