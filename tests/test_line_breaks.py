"""The LaTeX route's line breaks around a mention (_alone_on_line) come from one scan of the
stretch: each answer must be the one the two direct scans give (the scan cut at the mention,
the search after it), whatever the stretch and the positions, forced breaks with optional
arguments and \\newline glued to letters included."""

from __future__ import annotations

import random

from figlint.ingest import latex as L


class _Breaks:
    _line_breaks = L._Assembler._line_breaks
    _last_break_end = L._Assembler._last_break_end
    _next_break_start = L._Assembler._next_break_start

    def __init__(self, t: str):
        self.t, self._breaks = t, {}


PIECES = ["\\\\", "\\", "\\newline", "\\linebreak", "[", "]", "x", " ", "\n", "*", "@", "a", "newline",
          "\\\\*", "\\\\ [1pt]", "Fig. 1"]


def test_line_breaks_from_one_scan_equal_the_direct_scans():
    rng = random.Random(1)
    for _ in range(3000):
        t = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
        b = _Breaks(t)
        for _ in range(10):
            a, stop, pos, end = (rng.randint(0, len(t)) for _ in range(4))
            assert b._last_break_end(a, pos, stop) == max(
                (m.end() for m in L._LINE_BREAK.finditer(t, a, pos)), default=a), (t, a, pos, stop)
            m = L._LINE_BREAK.search(t, end, stop)
            assert b._next_break_start(a, end, stop) == (m.start() if m else None), (t, a, end, stop)
