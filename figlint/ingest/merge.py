"""Both routes at once: bind each LaTeX figure to its figure in the compiled PDF.

The LaTeX route knows files, lines, labels and graphics; the PDF knows what was
printed (page, region, text sizes, effective DPI). Figures are bound by the
number LaTeX gives them (the LaTeX route numbers figures as LaTeX does),
checked against the caption text; uncaptioned figures are bound in order.
The merged Paper keeps the LaTeX locations, so every finding points at a
`.tex` line, and carries the printed content, so visual rules run on the
figure as printed. Disagreements become findings: FL007 (the PDF was not
compiled from the sources as they are: from latexmk's recorded input hashes
where there are any, else from modification times) and FL008 (a figure in one
route is missing from the other once figures are matched by number, caption
text and order).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from pathlib import Path

from figlint.mentions import normalize_number
from figlint.model import Figure, Location, Paper, Problem, overlap_share
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
    if "layout" in pdf.extra:
        tex.extra["layout"] = pdf.extra["layout"]  # the printed text block, for a figure's fit (FL111)
    pdf_name = _rel(pdf_path, tex.root)

    stale = _stale_input(tex, pdf_path)
    if stale is not None:
        rel, why = stale
        tex.problems.append(Problem(
            "FL007",
            f"{pdf_name} was compiled before {rel} {why}: recompile, or the printed figures checked "
            "here may not match the sources",
            Location(file=rel, line=1) if rel.endswith(".tex") else _main_loc(tex),
        ))

    # Where the build left a SyncTeX file, each environment's printed box binds it to the
    # figure the PDF route read there, whatever either route makes of its number.
    places = _printed_places(tex, pdf) if stale is None else {}
    placed = bind_by_place(tex.figures, pdf.figures, places)
    held = {id(o) for o in placed.values()}
    pairs = match_figures([f for f in tex.figures if f.number and id(f) not in placed],
                          [f for f in pdf.figures if f.number and id(f) not in held])
    pairs.update(placed)
    loose = [f for f in pdf.figures if not f.number and id(f) not in held]
    for fig in tex.figures:
        if not fig.number and id(fig) not in placed and loose:
            _copy_printed(fig, loose.pop(0))
    bound = {id(o) for o in pairs.values()}
    for fig in tex.figures:
        if not fig.number:
            if id(fig) in placed:
                _copy_printed(fig, placed[id(fig)])
            continue
        other = pairs.get(id(fig))
        if other is None and id(fig) in places:
            # printed (SyncTeX says where) though the PDF route found no figure there: the
            # page is known, the printed content is not
            fig.page = fig.location.page = places[id(fig)][0]
            continue
        if other is None:
            tex.problems.append(Problem(
                "FL008", f"{fig.key} is in the sources but not in {pdf_name}", fig.location, fig.number))
            continue
        if fig.has_caption and other.has_caption and \
                _similar(fig.caption.text, other.caption.text) < _MIN_CAPTION_SIMILARITY:
            tex.problems.append(Problem(
                "FL008", f"{fig.key} has a different caption in {pdf_name}: the PDF is stale or "
                "was compiled from other sources", fig.location, fig.number))
        if normalize_number(fig.number) != normalize_number(other.number):
            fig.extra["printed_number"] = other.number
        _copy_printed(fig, other)
        _copy_site_pages(fig, other)
    for other in pdf.figures:
        if other.number and id(other) not in bound:
            tex.problems.append(Problem(
                "FL008", f"Figure {other.number} is in {pdf_name} (page {other.page}) but not in the sources",
                _main_loc(tex), other.number))
    return tex


def _printed_places(tex: Paper, pdf: Paper) -> dict[int, tuple[int, tuple[float, float, float, float]]]:
    """id(source figure) -> (page, box) where its environment printed, from the SyncTeX file
    beside the PDF ({} when there is none or it is not this PDF's)."""
    from figlint.ingest import synctex

    if not tex.root or synctex.find(pdf.path) is None:
        return {}
    spans: dict[int, tuple[str, int, int]] = {}
    for fig in tex.figures:
        loc = fig.location
        end = fig.extra.get("end_line")
        if loc.file and loc.line and end and fig.extra.get("end_file", loc.file) == loc.file and end > loc.line + 1:
            spans[id(fig)] = (loc.file, loc.line, end)
    wanted: dict[str, set[int]] = {}
    for rel, first, last in spans.values():
        wanted.setdefault(rel, set()).update(range(first + 1, last))
    sync = synctex.load(pdf.path, tex.root, wanted, pdf.pages or 0)
    return synctex.figure_places(sync, spans) if sync is not None else {}


def bind_by_place(tex: list[Figure], printed: list[Figure], places: dict) -> dict[int, Figure]:
    """id(source figure) -> the printed figure on its page whose graphics or caption lie in
    the box SyncTeX gives for its environment (most of the smaller box in common); each
    printed figure goes to one source figure, the best overlap first."""
    scored = []
    for f in tex:
        place = places.get(id(f))
        if place is None:
            continue
        page, box = place
        for o in printed:
            regions = []
            if o.page == page and o.bbox:
                regions.append(o.bbox)
            if o.caption is not None and o.caption.location.bbox and (o.caption.location.page or o.page) == page:
                regions.append(o.caption.location.bbox)
            s = max((overlap_share(box, r) for r in regions), default=0.0)
            if s >= 0.5:
                scored.append((s, f, o))
    out: dict[int, Figure] = {}
    taken: set[int] = set()
    for s, f, o in sorted(scored, key=lambda t: -t[0]):
        if id(f) not in out and id(o) not in taken:
            out[id(f)] = o
            taken.add(id(o))
    return out


def match_figures(tex: list[Figure], printed: list[Figure]) -> dict[int, Figure]:
    """Bind each numbered source figure to its printed figure: id(tex figure) -> printed figure.

    First by number, read as LaTeX prints it ("A.2" and "A2" are one figure; "3.1" is
    chapter 3's first), where the captions do not contradict it; then by caption text,
    for numbers the sources were simulated wrongly (a class that numbers its own way);
    then what is left in order, when as many figures are left on both sides and their
    captions do not contradict it. Only what none of these binds is a disagreement.
    """
    out: dict[int, Figure] = {}
    taken: set[int] = set()
    by_num: dict[str, list[Figure]] = {}
    for o in printed:
        by_num.setdefault(normalize_number(o.number), []).append(o)

    def fits(f: Figure, o: Figure, need: float) -> bool:
        if not (f.has_caption and o.has_caption):
            return True
        return _similar(f.caption.text, o.caption.text) >= need

    for f in tex:
        for o in by_num.get(normalize_number(f.number), []):
            if id(o) not in taken and fits(f, o, _MIN_CAPTION_SIMILARITY):
                out[id(f)] = o
                taken.add(id(o))
                break
    for f in tex:
        if id(f) in out or not f.has_caption:
            continue
        best = max((o for o in printed if id(o) not in taken and o.has_caption),
                   key=lambda o: _similar(f.caption.text, o.caption.text), default=None)
        if best is not None and _similar(f.caption.text, best.caption.text) >= 0.85:
            out[id(f)] = best
            taken.add(id(best))
    rest_t = [f for f in tex if id(f) not in out]
    rest_p = [o for o in printed if id(o) not in taken]
    if rest_t and len(rest_t) == len(rest_p):
        if all(fits(f, o, _MIN_CAPTION_SIMILARITY) for f, o in zip(rest_t, rest_p)):
            for f, o in zip(rest_t, rest_p):
                out[id(f)] = o
    # same number, different caption: bound anyway (FL008 says the captions differ)
    for f in tex:
        if id(f) in out:
            continue
        for o in by_num.get(normalize_number(f.number), []):
            if id(o) not in taken and id(o) not in {id(v) for v in out.values()}:
                out[id(f)] = o
                break
    return out


def _recorded_inputs(tex: Paper, pdf_path: str) -> dict[str, str] | None:
    """Input files and their MD5 as latexmk recorded them when it last compiled (.fdb_latexmk
    next to the main file or the PDF): path relative to the root -> hash; None without one."""
    cands = []
    main = tex.extra.get("main_tex")
    if main and tex.root:
        cands.append(Path(tex.root, main).with_suffix(".fdb_latexmk"))
    cands.append(Path(pdf_path).with_suffix(".fdb_latexmk"))
    for fdb in cands:
        if not fdb.is_file():
            continue
        try:
            text = fdb.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out: dict[str, str] = {}
        for m in _FDB_LINE.finditer(text):
            name, digest = m.group(1), m.group(2)
            full = Path(name) if os.path.isabs(name) else fdb.parent / name
            if tex.root:
                try:
                    rel = os.path.relpath(os.path.realpath(full), os.path.realpath(tex.root)).replace(os.sep, "/")
                except ValueError:
                    continue
                if not rel.startswith(".."):
                    out[rel] = digest
        if out:
            return out
    return None


# One input of a latexmk rule: "path" mtime size md5 "from-rule"
_FDB_LINE = re.compile(r'^[ \t]+"([^"\n]+)"[ \t]+[\d.]+[ \t]+-?\d+[ \t]+([0-9a-f]{32})[ \t]', re.M)


def _md5(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.md5(fh.read()).hexdigest()
    except OSError:
        return None


def _stale_input(tex: Paper, pdf_path: str) -> tuple[str, str] | None:
    """(source, why) when the PDF was not compiled from the sources as they are now.

    From content where latexmk recorded it: a source whose MD5 differs from the one in
    the .fdb_latexmk was edited after that compile, whatever the modification times say
    (a fresh clone or a checkout rewrites them). A source the compile never read is new only
    when it is also newer than the PDF: the record says nothing of it, and the sources name
    files that a compile rightly skips (an `\\input` in a conditional branch the document does
    not take, such as a template's bibliography back-end switch), so its time decides.
    Without such a record, from modification times alone.
    """
    recorded = _recorded_inputs(tex, pdf_path)
    files = list(dict.fromkeys(list(tex.extra.get("sources", [])) + [g for f in tex.figures for g in f.graphics]))
    try:
        pdf_mtime = os.path.getmtime(pdf_path)
    except OSError:
        pdf_mtime = None
    if recorded is not None:
        for rel in files:
            path = os.path.join(tex.root or "", rel)
            if not os.path.isfile(path):
                continue
            if rel not in recorded:
                if rel.endswith(".tex") and pdf_mtime is not None and os.path.getmtime(path) > pdf_mtime + 1:
                    return rel, "was added (the last compile did not read it)"
                continue
            if _md5(path) != recorded[rel]:
                return rel, "was changed"
        return None
    newest = _newest_source(tex)
    if pdf_mtime is None:
        return None
    if newest and newest[0] > pdf_mtime + 1:
        return newest[1], "was last modified"
    return None


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
    if "text_beside" in other.extra:
        fig.extra["text_beside"] = other.extra["text_beside"]
    if other.extra.get("turn"):  # its boxes are in the page turned upright (pdf_turn)
        fig.extra["turn"] = other.extra["turn"]
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
    elif ordered:  # at least the first citation's page, which is what FL303 needs
        ordered[0].location.page = printed[0].location.page


def _rel(path: str, root: str | None) -> str:
    if root:
        try:
            return os.path.relpath(path, root).replace(os.sep, "/")
        except ValueError:
            pass
    return path
