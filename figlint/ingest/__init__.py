"""Input routes: a compiled PDF, LaTeX sources (a main .tex or a directory), or one figure file.

A figure file is a raster image or a one-page PDF that looks like a figure
(see ingest/graphics.py); it is read as a paper with one uncaptioned figure.
LaTeX sources without a compiled PDF get their figures' printed content from
the graphics files placed at print size (see ingest/placement.py).

`load(path)` picks the route from the path and returns a Paper; it raises
InputError when the input cannot be read at all: a file whose first bytes are
not what its suffix says (ingest/sniff.py), a chapter `.tex` with no main file
above it (ingest/discover.py), an unsafe or oversized zip (ingest/archive.py).
A zip of sources (`paper.zip`, Overleaf's download) is unpacked to a temporary
folder and read as a paper folder. The compiled PDF of LaTeX sources is looked
for beside the main file, in latexmk's output directories and in `build/`,
`out/` (ingest/discover.py); a PDF that prints `??` for references the
sources define becomes an FL012 problem.
"""

from __future__ import annotations

from pathlib import Path

from figlint.errors import InputError
from figlint.model import Paper

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"}


def route_of(path: Path) -> str:
    if path.suffix.lower() == ".zip" and path.is_file():
        return "zip"
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
    if p.is_file() and p.suffix.lower() != ".tex":
        from figlint.ingest.sniff import check

        check(path)  # before the route: an HTML page named paper.pdf is no PDF
    route = route_of(p)
    if route == "zip":
        from figlint.ingest.archive import extract
        from figlint.ingest.latex import read_latex

        folder = extract(path)
        paper = _with_pdf(read_latex(folder, ref_macros=ref_macros), pdf)
        paper.extra["archive"] = {"path": path, "dir": folder}
        paper.path = path
        return paper
    if route == "latex":
        from figlint.ingest.latex import read_latex

        target = path
        if p.is_file():
            from figlint.ingest.discover import main_file_for

            target = main_file_for(path) or path
        paper = _with_pdf(read_latex(target, ref_macros=ref_macros), pdf)
        if target != path:
            paper.extra["main_found_from"] = path
        return paper
    if route == "image":
        from figlint.ingest.graphics import read_graphics

        return read_graphics(path)
    from figlint.ingest.pdf import read_pdf

    printed = read_pdf(path)
    return _with_marks(printed, None, printed.extra.get("unresolved_marks"))


def _with_pdf(paper: Paper, pdf: str | None) -> Paper:
    from figlint.ingest.merge import find_compiled_pdf, merge
    from figlint.ingest.placement import fill_from_graphics
    from figlint.model import Location, Problem

    if pdf:
        pdf_path: Path | None = Path(pdf)
    else:
        pdf_path = find_compiled_pdf(paper)
        main = paper.extra.get("main_tex")
        if pdf_path is None and main and paper.root:
            from figlint.ingest.discover import find_pdf

            pdf_path, searched = find_pdf(paper.root, main)
            # the results cache watches these: a PDF that appears later invalidates the entry
            paper.extra["pdf_searched"] = [str(c.absolute()) for c in searched]
    if pdf_path is None:  # no PDF: predict the printed figures from the graphics files
        return fill_from_graphics(paper)
    from figlint.ingest.pdf import read_pdf

    from figlint.ingest.merge import graphics_sides

    try:
        from figlint.ingest.sniff import check

        check(str(pdf_path))
        printed = read_pdf(str(pdf_path), sides=graphics_sides(paper))
    except InputError as exc:
        paper.problems.append(Problem("FL001", f"{exc}; linting the sources alone", Location(file=str(pdf_path))))
        return fill_from_graphics(paper)
    marks = printed.extra.get("unresolved_marks")
    return _with_marks(merge(paper, printed), str(pdf_path), marks)


# citation rules that "??" in place of the references would mislead
CITATION_RULES = ("FL301", "FL302", "FL303")


def _with_marks(paper: Paper, pdf_path: str | None, marks) -> Paper:
    """FL012 when the PDF prints `??` for figure references the sources define (or, for a
    PDF alone, for any figure reference): LaTeX needs another run before the citations can
    be judged. `marks` is (count, examples) from discover.unresolved_in_pages."""
    from figlint.model import Location, Problem

    pdf_file = pdf_path or paper.path
    count, examples = marks or (0, [])
    if not count:
        return paper
    undefined = len(paper.extra.get("unresolved_refs") or []) if paper.route == "latex" else 0
    if count <= undefined:
        return paper  # every ?? is a reference to a label the sources never define: FL304's finding
    page, context = examples[0]
    if paper.route == "latex":
        what = (f"the compiled PDF prints '??' {count} time{'s' if count != 1 else ''} (e.g. page {page}: "
                f"\"{context}\") for figure references the sources define: run LaTeX again (latexmk does it until "
                f"they resolve), then lint the new PDF")
    else:
        what = (f"the PDF prints '??' {count} time{'s' if count != 1 else ''} (e.g. page {page}: \"{context}\") "
                f"where figure references should be: run LaTeX again (or define the missing labels); citations "
                f"are not checked until they resolve")
    paper.problems.append(Problem("FL012", what, Location(file=pdf_file, page=page)))
    paper.extra["unresolved_pdf_refs"] = count
    paper.extra["silenced_rules"] = list(CITATION_RULES)
    return paper
