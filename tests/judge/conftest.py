"""Fixtures of the judge tests (helpers in judge_helpers.py, the server in fakeserver.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fakeserver import FakeOpenAI  # noqa: E402
from judge_helpers import TEST_KEY, by_stage  # noqa: E402


@pytest.fixture
def server():
    """A factory: server(script) starts a FakeOpenAI for the test and stops it after."""
    started = []

    def make(script=None, latency: float = 0.0) -> FakeOpenAI:
        s = FakeOpenAI(script if script is not None else by_stage(), latency=latency)
        s.__enter__()
        started.append(s)
        return s

    yield make
    for s in started:
        s.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def judge_env(tmp_path, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("FIGLINT_TEST_KEY", TEST_KEY)
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")


