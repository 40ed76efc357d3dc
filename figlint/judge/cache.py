"""Content-addressed cache of the judge's validated replies, and the run's call budget.

A reply is stored under the sha256 of everything that decides it: protocol,
stage, prompt version, model, and the stage's inputs (the sha256 of the image
bytes, the caption, the citing text, the side features, the earlier stages'
reports). Each stage is keyed by what that stage sees, so editing a caption
re-runs the language and fusion stages but not the vision stage. An unchanged
figure costs no call on the next run. Only replies that parsed and validated
are stored. Directory: `judge/` in the cache folder (figlint/cache.py: $FIGLINT_CACHE_DIR,
else .figlint_cache at the project root); --no-cache turns it off. Writes are
atomic (temp file + rename), so concurrent threads and runs never read half a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    from figlint.cache import cache_root  # one definition of where the cache lives

    return cache_root() / "judge"


def digest(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def cache_key(**parts: Any) -> str:
    return digest(json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str))


class JudgeCache:
    """The replies cache. Without arguments it follows the input being linted: its cache
    folder, and off under --no-cache (figlint/cache.py), read at each use."""

    def __init__(self, root: Path | None = None, enabled: bool | None = None):
        self._root = Path(root) if root is not None else None
        self._enabled = enabled

    @property
    def root(self) -> Path:
        return self._root if self._root is not None else cache_dir()

    @property
    def enabled(self) -> bool:
        if self._enabled is not None:
            return self._enabled
        from figlint.cache import enabled

        return enabled()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def has(self, key: str) -> bool:
        return self.enabled and self._path(key).is_file()

    def put(self, key: str, value: dict[str, Any]) -> None:
        if not self.enabled:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(value, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is only slower


class BudgetExhausted(Exception):
    """No further model call is allowed in this run."""


class Budget:
    """Calls and estimated cost over one run, shared by all threads. 0 means no limit."""

    def __init__(self, max_calls: int = 0, max_cost: float = 0.0):
        self.max_calls = max_calls
        self.max_cost = max_cost
        self.calls = 0
        self.cost = 0.0
        self.exhausted: str | None = None
        self._lock = threading.Lock()

    def reserve(self) -> None:
        """Take one call from the budget, or raise BudgetExhausted."""
        with self._lock:
            if self.max_calls and self.calls >= self.max_calls:
                self.exhausted = f"judge-max-calls {self.max_calls} reached"
            elif self.max_cost and self.cost >= self.max_cost:
                self.exhausted = f"judge-max-cost {self.max_cost:g} reached (estimated ${self.cost:.4f})"
            if self.exhausted:
                raise BudgetExhausted(self.exhausted)
            self.calls += 1

    def add_cost(self, cost: float) -> None:
        with self._lock:
            self.cost += max(0.0, float(cost or 0.0))
