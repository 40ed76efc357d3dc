"""HTML report (`--format html`): one self-contained page a reviewer can open anywhere.

Per paper: a roll-up of the findings per rule, then one card per figure with
a thumbnail rendered from the PDF (PyMuPDF) with every flagged region (the
finding's box on the figure's page) drawn on it as an SVG overlay, the
caption, the citing sentences with the mention highlighted, the findings
with their rule's summary and page, and the five scores with what they mean
on the rubric. Everything is inline (PNG thumbnails as data: URIs, CSS in a
<style> element), nothing needs JavaScript, so the file can be mailed,
attached as a workflow artifact or opened from any folder. All paper text
is untrusted: jinja2 autoescaping escapes it and markdown.plain drops
control characters first. Like every reporter it only reads the RunResult
(and the PDFs it names, to draw the thumbnails); a thumbnail that cannot be
drawn is a sentence in the card, never a failure.
"""

from __future__ import annotations

import base64
import os
from collections import Counter
from functools import lru_cache

from figlint import __version__
from figlint.budget import SKIP_KEY
from figlint.model import Figure, Finding, Paper, severity_rank, union
from figlint.report import rubric
from figlint.report.common import overall, plural, scores_of, severity_counts
from figlint.report.links import PROJECT_URL, rule_url
from figlint.report.markdown import assign, plain, where_text

THUMB_MAX_WIDTH_PX = 880  # at most this wide, whatever the figure's size
THUMB_MAX_DPI = 144
PAD_PT = 6.0  # room around the drawn regions
MIN_REGION_PT = 8.0  # a flagged 3 pt glyph is still a visible box
# Drawing cost grows with the vector path segments on the page, not with the resolution: a
# figure of 234,000 segments (a dense scatter plot in a corpus paper) takes 12 s to draw at
# any size, more than linting the whole paper. Above this many, the card says so instead.
MAX_THUMB_PATH_ITEMS = 50_000
MAX_SITES = 12
MAX_CAPTION_CHARS = 2000
MAX_SENTENCE_CHARS = 600
# Region colours by severity: saturated hues absent from the usual plotting palettes,
# so a drawn region never blends into the figure (the Chromium test looks for them).
COLOURS = {"error": "#e0006e", "warning": "#ff6a00", "note": "#0050ff"}


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("figlint.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@lru_cache(maxsize=None)
def _rule(code: str):
    from figlint.rules.registry import all_rules

    for r in all_rules():
        if r.code == code:
            return r
    return None


def _rule_summary(code: str) -> str:
    r = _rule(code)
    return r.summary if r is not None else ""


def _finding_view(f: Finding, default_file: str, root: str | None, region: int | None,
                  on_card: bool = True) -> dict:
    return {
        "code": f.code, "rule": plain(f.rule, 80), "severity": f.severity, "message": plain(f.message, 1000),
        "where": plain(where_text(f, default_file, root), 300), "url": rule_url(f.code),
        "summary": _rule_summary(f.code), "region": region, "colour": COLOURS.get(f.severity, COLOURS["note"]),
        "off_figure": on_card and region is None and f.location.page is not None,
        "page": f.location.page,
    }


def _site_view(site, default_file: str, root: str | None) -> dict:
    sentence = plain(site.sentence or site.paragraph, MAX_SENTENCE_CHARS)
    mention = plain(site.mention, 120)
    i = sentence.find(mention) if mention else -1
    if i < 0 and mention:
        i = sentence.lower().find(mention.lower())
    if i < 0:
        before, marked, after = sentence, "", ""
    else:
        before, marked, after = sentence[:i], sentence[i:i + len(mention)], sentence[i + len(mention):]
    loc = site.location
    where = where_text(None, default_file, root, loc) if (loc.file or loc.page) else ""
    return {"before": before, "mention": marked, "after": after, "where": plain(where, 300)}


def _pdf_of(paper: Paper | None) -> str | None:
    if paper is None:
        return None
    if paper.pdf_path:
        return paper.pdf_path
    if paper.route in ("pdf", "image"):
        return paper.path
    return None


def _grow(b, minimum: float):
    x0, y0, x1, y1 = b
    if x1 - x0 < minimum:
        cx = (x0 + x1) / 2
        x0, x1 = cx - minimum / 2, cx + minimum / 2
    if y1 - y0 < minimum:
        cy = (y0 + y1) / 2
        y0, y1 = cy - minimum / 2, cy + minimum / 2
    return (x0, y0, x1, y1)


class _Pages:
    """The PDF (or image) of one paper, opened once for all of its thumbnails."""

    def __init__(self, path: str | None, paper: Paper | None):
        self.path = path
        self.doc = None
        self.error = ""
        self.scale = 1.0
        if not path:
            self.error = "no compiled PDF to draw it from"
            return
        try:
            from figlint.ingest.mupdf import open_pdf

            self.doc = open_pdf(path)
            if paper is not None and paper.route == "image" and paper.page_size and self.doc.page_count:
                # A figure file opened as a document: its page may use another unit than the
                # points the figure's boxes are in (an image's pixels at its own DPI).
                self.scale = self.doc[0].rect.width / max(paper.page_size[0], 1e-6)
        except Exception as exc:  # noqa: BLE001 - a thumbnail never fails the report
            self.doc = None
            self.error = f"the PDF could not be opened ({type(exc).__name__})"

    def close(self) -> None:
        if self.doc is not None:
            self.doc.close()

    def thumbnail(self, fig: Figure, regions: list[tuple[int, Finding]]) -> dict:
        """{"uri", "box" (x, y, w, h in points), "width_px", "regions"} or {"error"}."""
        if self.doc is None:
            return {"error": self.error}
        if fig.extra.get(SKIP_KEY):
            return {"error": "the figure was too large to analyse, so it is not drawn either"}
        items = sum(d.items for d in fig.drawings)
        if items > MAX_THUMB_PATH_ITEMS:
            return {"error": f"its {items:,} vector path segments are too many to draw quickly; "
                             f"see page {fig.page} of the PDF"}
        boxes = ([tuple(fig.bbox)] if fig.bbox is not None else []) + [
            _grow(tuple(f.location.bbox), MIN_REGION_PT) for _, f in regions]
        page_no = fig.page or (regions[0][1].location.page if regions else None)
        if not boxes or not page_no or not 1 <= page_no <= self.doc.page_count:
            return {"error": "the figure's place on the page is not known"}
        try:
            import pymupdf

            from figlint.ingest.pdf_turn import upright

            page = upright(self.doc[page_no - 1], fig.extra.get("turn", 0))  # the frame it was read in
            s = self.scale
            x0, y0, x1, y1 = union(boxes)
            clip = pymupdf.Rect((x0 - PAD_PT) * s, (y0 - PAD_PT) * s, (x1 + PAD_PT) * s, (y1 + PAD_PT) * s) & page.rect
            if clip.is_empty:
                return {"error": "the figure's box lies outside its page"}
            dpi = min(THUMB_MAX_DPI, THUMB_MAX_WIDTH_PX * 72.0 / clip.width)
            pix = page.get_pixmap(dpi=max(24, int(dpi)), clip=clip, alpha=False)
            png = pix.tobytes("png")
        except Exception as exc:  # noqa: BLE001 - a thumbnail never fails the report
            return {"error": f"it could not be drawn ({type(exc).__name__})"}
        drawn = []
        for n, f in regions:
            bx0, by0, bx1, by1 = _grow(tuple(f.location.bbox), MIN_REGION_PT)
            drawn.append({"n": n, "code": f.code, "rule": plain(f.rule, 80), "severity": f.severity,
                          "colour": COLOURS.get(f.severity, COLOURS["note"]),
                          "x": round(bx0 * s, 2), "y": round(by0 * s, 2),
                          "w": round((bx1 - bx0) * s, 2), "h": round((by1 - by0) * s, 2)})
        return {
            "uri": "data:image/png;base64," + base64.b64encode(png).decode("ascii"),
            "box": (round(clip.x0, 2), round(clip.y0, 2), round(clip.width, 2), round(clip.height, 2)),
            "width_px": pix.width,
            "height_px": pix.height,
            "regions": drawn,
        }


def _figure_view(index: int, fig: Figure, own: list[Finding], r, pages: _Pages) -> dict:
    root = r.paper.root if r.paper else None
    own = sorted(own, key=lambda f: -severity_rank(f.severity))
    regions: list[tuple[int, Finding]] = []
    views = []
    for f in own:
        on_figure = f.location.bbox is not None and f.location.page is not None and f.location.page == fig.page
        n = len(regions) + 1 if on_figure else None
        if on_figure:
            regions.append((n, f))
        views.append(_finding_view(f, r.path, root, n))
    thumb = pages.thumbnail(fig, regions) if (fig.bbox is not None or regions) else {
        "error": "the figure's place on the page is not known"}
    scores = scores_of(fig)
    title = fig.key if fig.number else (f"Uncaptioned figure (page {fig.page})" if fig.page else "Uncaptioned figure")
    sites = [_site_view(s, r.path, root) for s in fig.sites[:MAX_SITES]]
    return {
        "id": f"paper{index + 1}-fig-{''.join(c if c.isalnum() else '-' for c in fig.number) or f'p{fig.page}'}",
        "title": plain(title, 80),
        "page": fig.page,
        "kind": fig.kind,
        "caption": plain(fig.caption.text, MAX_CAPTION_CHARS) if fig.has_caption else "",
        "caption_label": plain(fig.caption.label, 40) if fig.has_caption else "",
        "sites": sites,
        "more_sites": max(0, len(fig.sites) - MAX_SITES),
        "findings": views,
        "counts": _counts(own),
        "worst": own[0].severity if own else "",
        "thumb": thumb,
        "scores": rubric.dimension_views(scores) if scores else None,
        "overall": rubric.as_int(overall(scores)),
    }


def _counts(findings: list[Finding]) -> str:
    c = severity_counts(findings)
    parts = [plural(c[k], k) for k in ("error", "warning", "note") if c[k]]
    return ", ".join(parts) if parts else "no findings"


def _paper_view(index: int, r) -> dict:
    paper = r.paper
    per_figure, rest = assign(paper, r.findings)
    pages = _Pages(_pdf_of(paper), paper) if per_figure else None
    try:
        figures = [_figure_view(index, fig, own, r, pages) for fig, own in per_figure]
        seen: set[str] = set()
        for view in figures:  # two uncaptioned figures on one page, a number printed twice
            base, k = view["id"], 2
            while view["id"] in seen:
                view["id"], k = f"{base}-{k}", k + 1
            seen.add(view["id"])
    finally:
        if pages is not None:
            pages.close()
    root = paper.root if paper else None
    return {
        "index": index + 1,
        "path": plain(r.path, 300),
        "name": plain(os.path.basename(r.path), 80),
        "route": paper.route if paper else "",
        "pages": paper.pages if paper else 0,
        "error": plain(r.error, 500) if r.error else "",
        "figures": figures,
        "flagged": sum(1 for f in figures if f["findings"]),
        "other": [_finding_view(f, r.path, root, None, on_card=False) for f in rest],
        "counts": _counts(r.findings),
    }


def _rollup(result, papers: list[dict]) -> list[dict]:
    """One row per rule: code, name, severity, count, and the figures (anchors) it flags."""
    rows: dict[str, dict] = {}
    for r, pv in zip(result.results, papers):
        fig_ids = {}
        per_figure, _ = assign(r.paper, r.findings)
        for (fig, own), view in zip(per_figure, pv["figures"]):
            # figure numbers repeat across papers: name the paper when there are several
            title = f"{pv['name']}: {view['title']}" if len(papers) > 1 else view["title"]
            for f in own:
                fig_ids.setdefault(id(f), (view["id"], title))
        for f in r.findings:
            row = rows.setdefault(f.code, {"code": f.code, "rule": plain(f.rule, 80), "severity": f.severity,
                                           "count": 0, "figures": {}, "url": rule_url(f.code),
                                           "summary": _rule_summary(f.code)})
            row["count"] += 1
            if severity_rank(f.severity) > severity_rank(row["severity"]):
                row["severity"] = f.severity
            if id(f) in fig_ids:
                anchor, title = fig_ids[id(f)]
                row["figures"][anchor] = title
    out = sorted(rows.values(), key=lambda row: (-severity_rank(row["severity"]), -row["count"], row["code"]))
    for row in out:
        row["figures"] = list(row["figures"].items())
    return out


def render(result) -> str:
    papers = [_paper_view(i, r) for i, r in enumerate(result.results)]
    code = result.exit_code()
    nfig = sum(len(p["figures"]) for p in papers)
    sev = Counter(f.severity for f in result.findings)
    return _env().get_template("report.html.j2").render(
        verdict={0: "passed", 1: "failed", 2: "some inputs could not be read"}[code],
        exit_code=code,
        counts=_counts(result.findings),
        nfindings=len(result.findings),
        severities=sev,
        nfigures=nfig,
        papers=papers,
        rollup=_rollup(result, papers),
        fail_on=result.config.fail_on,
        version=__version__,
        project_url=PROJECT_URL,
        legend=rubric.LEGEND,
        colours=COLOURS,
        dims=[{"abbr": v["abbr"], "name": v["name"], "looks_at": v["looks_at"]}
              for v in rubric.dimension_views(None)],
    )

