"""FL2xx rules that compare what a caption says about marks (colours, line styles) with the marks drawn."""

from __future__ import annotations
