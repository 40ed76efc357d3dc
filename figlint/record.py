"""A linted input as plain JSON data, for the results cache: findings and the small per-figure record.

`result_to_plain` keeps what the reports read — the paper's route, pages and
paths; per figure its number, labels, page, boxes, caption, citing sites,
subpanels, graphics files, raster image sizes, scores and other plain `extra`
values, and the counts the reports print about its content (text spans, the
smallest text size, drawings, kind) — and drops what only the rules needed:
text spans, vector drawings, pixels and analyses (`extra` keys starting with
"_", and any value that is not plain data). `result_from_plain` rebuilds the
records, tuples where the model has tuples, so every report of a loaded result
is byte for byte the report of the run that stored it.
"""

from __future__ import annotations

import math
from typing import Any

from figlint.model import Caption, CitingSite, Figure, Finding, Location, Paper, Problem, RasterImage, Subpanel

_PLAIN_SCALARS = (str, int, bool, type(None))


def _is_plain(value: Any, depth: int = 0) -> bool:
    """JSON data that survives a round trip unchanged (tuples come back as lists)."""
    if isinstance(value, _PLAIN_SCALARS):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if depth > 20:
        return False
    if isinstance(value, (list, tuple)):
        return all(_is_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v, depth + 1) for k, v in value.items())
    return False


def _extra(extra: dict) -> dict:
    return {k: v for k, v in extra.items() if not k.startswith("_") and _is_plain(v)}


def _box(b):
    return tuple(b) if b is not None else None


def _loc(loc: Location) -> dict:
    return {"file": loc.file, "line": loc.line, "column": loc.column, "page": loc.page, "bbox": loc.bbox}


def _loc_from(d: dict | None) -> Location:
    if d is None:
        return Location()
    return Location(file=d["file"], line=d["line"], column=d["column"], page=d["page"], bbox=_box(d["bbox"]))


def _finding(f: Finding) -> dict:
    return {"code": f.code, "rule": f.rule, "severity": f.severity, "message": f.message,
            "location": _loc(f.location), "figure": f.figure, "evidence": f.evidence,
            "dimension": f.dimension, "cap": f.cap, "taxonomy": f.taxonomy, "origin": f.origin}


def _finding_from(d: dict) -> Finding:
    return Finding(code=d["code"], rule=d["rule"], severity=d["severity"], message=d["message"],
                   location=_loc_from(d["location"]), figure=d["figure"], evidence=d["evidence"],
                   dimension=d["dimension"], cap=d["cap"], taxonomy=d["taxonomy"], origin=d["origin"])


def _site(s: CitingSite) -> dict:
    return {"paragraph": s.paragraph, "sentence": s.sentence, "mention": s.mention, "location": _loc(s.location),
            "via": s.via, "macro": s.macro, "panels": s.panels, "order": s.order, "labels": s.labels}


def _site_from(d: dict) -> CitingSite:
    return CitingSite(paragraph=d["paragraph"], sentence=d["sentence"], mention=d["mention"],
                      location=_loc_from(d["location"]), via=d["via"], macro=d["macro"], panels=d["panels"],
                      order=d["order"], labels=d["labels"])


def _image(i: RasterImage) -> dict:
    return {"width_px": i.width_px, "height_px": i.height_px, "bbox": i.bbox, "dpi_x": i.dpi_x, "dpi_y": i.dpi_y,
            "xref": i.xref, "name": i.name, "digest": i.digest, "dpi_source": i.dpi_source, "placed": i.placed}


def _image_from(d: dict) -> RasterImage:
    return RasterImage(**{**d, "bbox": _box(d["bbox"]), "placed": _box(d["placed"]) if d.get("placed") else None})


def _figure(fig: Figure) -> dict:
    n_spans, min_pt, n_drawings = fig.content_counts()
    cap = fig.caption
    return {
        "number": fig.number, "page": fig.page, "bbox": fig.bbox,
        "caption": None if cap is None else {"text": cap.text, "label": cap.label, "location": _loc(cap.location),
                                             "short": cap.short},
        "sites": [_site(s) for s in fig.sites], "labels": fig.labels,
        "subpanels": [{"label": p.label, "bbox": p.bbox, "caption": p.caption} for p in fig.subpanels],
        "location": _loc(fig.location), "images": [_image(i) for i in fig.images], "graphics": fig.graphics,
        "env": fig.env, "in_appendix": fig.in_appendix, "extra": _extra(fig.extra),
        "content": {"text_spans": n_spans, "min_font_pt": min_pt, "drawings": n_drawings, "kind": fig.kind},
    }


def _figure_from(d: dict) -> Figure:
    cap = d["caption"]
    return Figure(
        number=d["number"], page=d["page"], bbox=_box(d["bbox"]),
        caption=None if cap is None else Caption(text=cap["text"], label=cap["label"],
                                                 location=_loc_from(cap["location"]), short=cap["short"]),
        sites=[_site_from(s) for s in d["sites"]], labels=d["labels"],
        subpanels=[Subpanel(label=p["label"], bbox=_box(p["bbox"]), caption=p["caption"]) for p in d["subpanels"]],
        location=_loc_from(d["location"]), images=[_image_from(i) for i in d["images"]], graphics=d["graphics"],
        env=d["env"], in_appendix=d["in_appendix"], extra=d["extra"], content_summary=d["content"],
    )


def _paper(p: Paper) -> dict:
    return {"path": p.path, "route": p.route, "pages": p.pages, "body_font_size": p.body_font_size,
            "page_size": p.page_size, "pdf_path": p.pdf_path, "root": p.root,
            "problems": [{"code": x.code, "message": x.message, "location": _loc(x.location), "figure": x.figure}
                         for x in p.problems],
            "figures": [_figure(f) for f in p.figures], "extra": _extra(p.extra)}


def _paper_from(d: dict) -> Paper:
    return Paper(path=d["path"], route=d["route"], pages=d["pages"], body_font_size=d["body_font_size"],
                 page_size=_box(d["page_size"]), pdf_path=d["pdf_path"], root=d["root"],
                 problems=[Problem(code=x["code"], message=x["message"], location=_loc_from(x["location"]),
                                   figure=x["figure"]) for x in d["problems"]],
                 figures=[_figure_from(f) for f in d["figures"]], extra=d["extra"])


def result_to_plain(result) -> dict:
    return {"path": result.path, "error": result.error, "findings": [_finding(f) for f in result.findings],
            "paper": _paper(result.paper) if result.paper is not None else None}


def result_from_plain(d: dict):
    from figlint.engine import PaperResult

    return PaperResult(path=d["path"], error=d["error"], findings=[_finding_from(f) for f in d["findings"]],
                       paper=_paper_from(d["paper"]) if d["paper"] is not None else None)
