"""Input routes: a compiled PDF, LaTeX sources (a main .tex or a directory), or one figure file.

`load(path)` picks the route from the path and returns a Paper; it raises
InputError when the input cannot be read at all.
"""

from __future__ import annotations

from pathlib import Path

from figlint.errors import InputError
from figlint.model import Paper

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"}


def route_of(path: Path) -> str:
    if path.is_dir() or path.suffix.lower() == ".tex":
        return "latex"
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return "image"
    return "pdf"


def load(path: str) -> Paper:
    p = Path(path)
    if not p.exists():
        raise InputError(f"{path}: no such file or directory")
    route = route_of(p)
    if route == "latex":
        from figlint.ingest.latex import read_latex

        return read_latex(path)
    if route == "image":
        raise InputError(f"{path}: single image files are not supported yet")
    from figlint.ingest.pdf import read_pdf

    return read_pdf(path)
