"""Regular expressions compiled when first used, not when their module is imported.

Every rule module is imported to register its codes, but a default run executes only the
stable rules: the preview rules' patterns (the claim, caption and axis-unit rules hold dozens
of long alternations) were compiled on every run for nothing, a sizeable part of start-up.
`lazy(pattern, flags)` stands in for `re.compile(pattern, flags)` at module level: the first
look-up of a method compiles the pattern once and keeps its methods on the object, so later
calls cost what a compiled pattern's do. Use it only for patterns used through their methods
(`.search(...)`), never passed to `re.sub` and friends.
"""

from __future__ import annotations

import re

_KEPT = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
         "scanner", "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    def __init__(self, pattern, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str):
        # only reached for names not yet on the object: the first use
        if name.startswith("__") or name == "_source":
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for attr in _KEPT:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r})"


def lazy(pattern, flags: int = 0) -> LazyPattern:
    """`re.compile(pattern, flags)`, deferred to the pattern's first use."""
    return LazyPattern(pattern, flags)
