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
