"""Input routes: a compiled PDF, LaTeX sources (a main .tex or a directory), or one figure file.

A figure file is a raster image or a one-page PDF that looks like a figure
(see ingest/graphics.py); it is read as a paper with one uncaptioned figure.
LaTeX sources without a compiled PDF get their figures' printed content from
the graphics files placed at print size (see ingest/placement.py).

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
    if path.suffix.lower() == ".pdf":
        from figlint.ingest.graphics import is_figure_pdf

        if is_figure_pdf(path):
            return "image"
    return "pdf"


def load(path: str, pdf: str | None = None, ref_macros: list[str] | tuple = ()) -> Paper:
    """Read one input. For LaTeX sources, `pdf` (or the compiled PDF found next to the
    main file) is read too and merged, so visual rules see the figures as printed."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{path}: no such file or directory")
    route = route_of(p)
    if route == "latex":
        from figlint.ingest.latex import read_latex

        return _with_pdf(read_latex(path, ref_macros=ref_macros), pdf)
    if route == "image":
        from figlint.ingest.graphics import read_graphics

        return read_graphics(path)
    from figlint.ingest.pdf import read_pdf

    return read_pdf(path)


def _with_pdf(paper: Paper, pdf: str | None) -> Paper:
    from figlint.ingest.merge import find_compiled_pdf, merge
    from figlint.ingest.placement import fill_from_graphics
    from figlint.model import Location, Problem

    pdf_path = Path(pdf) if pdf else find_compiled_pdf(paper)
    if pdf_path is None:  # no PDF: predict the printed figures from the graphics files
        return fill_from_graphics(paper)
    from figlint.ingest.pdf import read_pdf

    from figlint.ingest.merge import graphics_sides

    try:
        printed = read_pdf(str(pdf_path), sides=graphics_sides(paper))
    except InputError as exc:
        paper.problems.append(Problem("FL001", f"{exc}; linting the sources alone", Location(file=str(pdf_path))))
        return fill_from_graphics(paper)
    return merge(paper, printed)
