"""Both routes at once: bind each LaTeX figure to its figure in the compiled PDF.

The LaTeX route knows files, lines, labels and graphics; the PDF knows what was
printed (page, region, text sizes, effective DPI). Figures are bound by the
number LaTeX gives them (the LaTeX route numbers figures as LaTeX does),
checked against the caption text; uncaptioned figures are bound in order.
The merged Paper keeps the LaTeX locations, so every finding points at a
`.tex` line, and carries the printed content, so visual rules run on the
figure as printed. Disagreements become findings: FL007 (the PDF is older
than the sources) and FL008 (a figure in one route is missing from the other).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from figlint.model import Figure, Location, Paper, Problem
from figlint.text import normalize

# Below this caption similarity the "same number" figure is not the same figure:
# the PDF was compiled from other sources.
_MIN_CAPTION_SIMILARITY = 0.6


def find_compiled_pdf(paper: Paper) -> Path | None:
    """The PDF LaTeX would write for the main file, when it exists next to it."""
    main = paper.extra.get("main_tex")
    if not main or not paper.root:
        return None
    main_path = Path(paper.root) / main
    candidate = main_path.with_suffix(".pdf")
    return candidate if candidate.is_file() else None


def graphics_sides(tex: Paper) -> dict[str, str]:
    """Figure number -> where its graphics print relative to its caption ("above" when an
    \\includegraphics of the environment comes before the \\caption, "below" when all come
    after), from the sources. The PDF route takes these as given, so both routes bind each
    caption to the same graphics by construction; the PDF supplies only the geometry."""
    out = {}
    for fig in tex.figures:
        if not fig.number or fig.caption is None or fig.caption.location.line is None:
            continue
        cap = (fig.caption.location.file, fig.caption.location.line, fig.caption.location.column or 0)
        places = [(g["location"].get("file"), g["location"].get("line") or 0, 0)
                  for g in fig.extra.get("graphics_options", []) if g.get("location")]
        places = [p for p in places if p[0] == cap[0]]
        if not places:
            continue
        if any(p[1:] < cap[1:] for p in places):
            out[fig.number] = "above"
        else:
            out[fig.number] = "below"
    return out


def _similar(a: str, b: str) -> float:
    a, b = normalize(a).lower(), normalize(b).lower()
    if not a or not b:
        return 0.0
    return difflib.SequenceMatcher(None, a[:400], b[:400], autojunk=False).ratio()


def _newest_source(paper: Paper) -> tuple[float, str] | None:
    newest: tuple[float, str] | None = None
    files = list(paper.extra.get("sources", []))
    files += [g for f in paper.figures for g in f.graphics]
    for rel in files:
        try:
            mtime = os.path.getmtime(os.path.join(paper.root or "", rel))
        except OSError:
            continue
        if newest is None or mtime > newest[0]:
            newest = (mtime, rel)
    return newest


def merge(tex: Paper, pdf: Paper) -> Paper:
    """Return `tex` enriched with the printed content of `pdf` (modified in place)."""
    pdf_path = pdf.path
    tex.pdf_path = pdf_path
    tex.pages = pdf.pages
    tex.body_font_size = pdf.body_font_size
    tex.page_size = pdf.page_size
    tex.extra["columns"] = pdf.extra.get("columns", 1)
    pdf_name = _rel(pdf_path, tex.root)

    newest = _newest_source(tex)
    try:
        pdf_mtime = os.path.getmtime(pdf_path)
    except OSError:
        pdf_mtime = None
    if newest and pdf_mtime is not None and newest[0] > pdf_mtime + 1:
        tex.problems.append(Problem(
            "FL007",
            f"{pdf_name} is older than {newest[1]}: recompile, or the printed figures checked "
            "here may not match the sources",
            Location(file=newest[1], line=1) if newest[1].endswith(".tex") else _main_loc(tex),
        ))

    printed = {f.number: f for f in pdf.figures if f.number}
    loose = [f for f in pdf.figures if not f.number]
    used: set[str] = set()
    for fig in tex.figures:
        if not fig.number:
            if loose:
                _copy_printed(fig, loose.pop(0))
            continue
        other = printed.get(fig.number)
        if other is None:
            tex.problems.append(Problem(
                "FL008", f"{fig.key} is in the sources but not in {pdf_name}", fig.location, fig.number))
            continue
        used.add(fig.number)
        if fig.has_caption and other.has_caption and \
                _similar(fig.caption.text, other.caption.text) < _MIN_CAPTION_SIMILARITY:
            tex.problems.append(Problem(
                "FL008", f"{fig.key} has a different caption in {pdf_name}: the PDF is stale or "
                "was compiled from other sources", fig.location, fig.number))
        _copy_printed(fig, other)
        _copy_site_pages(fig, other)
    for number, other in printed.items():
        if number not in used:
            tex.problems.append(Problem(
                "FL008", f"Figure {number} is in {pdf_name} (page {other.page}) but not in the sources",
                _main_loc(tex), number))
    return tex


def _main_loc(tex: Paper) -> Location:
    """Findings about the PDF as a whole point at the main file, which code review can show."""
    return Location(file=tex.extra.get("main_tex"), line=1)


def _copy_printed(fig: Figure, other: Figure) -> None:
    fig.page = other.page
    fig.bbox = other.bbox
    fig.spans = other.spans
    fig.images = other.images
    fig.drawings = other.drawings
    fig.extra["content_source"] = "pdf"
    if other.subpanels and not any(p.bbox for p in fig.subpanels):
        captions = {p.label: p.caption for p in fig.subpanels}
        fig.subpanels = other.subpanels
        for p in fig.subpanels:
            p.caption = p.caption or captions.get(p.label, "")
    fig.location.page = other.page
    fig.location.bbox = other.bbox
    if fig.caption is not None and other.caption is not None:
        fig.caption.location.page = other.caption.location.page
        fig.caption.location.bbox = other.caption.location.bbox
    fig.extra["pdf_caption"] = other.caption.text if other.caption else None


def _copy_site_pages(fig: Figure, other: Figure) -> None:
    """Give source sites their printed page when both routes see the same citations."""
    if not other.sites:
        return
    printed = sorted(other.sites, key=lambda s: (s.location.page or 0, s.order or 0))
    ordered = sorted(fig.sites, key=lambda s: s.order or 0)
    if len(printed) == len(ordered):
        for src, out in zip(ordered, printed):
            src.location.page = out.location.page
    else:  # at least the first citation's page, which is what FL303 needs
        ordered[0].location.page = printed[0].location.page if ordered else None


def _rel(path: str, root: str | None) -> str:
    if root:
        try:
            return os.path.relpath(path, root).replace(os.sep, "/")
        except ValueError:
            pass
    return path
