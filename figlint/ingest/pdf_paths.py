"""A page's vector paths as the PDF route keeps them, read in one pass as MuPDF hands them over.

`get_cdrawings(extended=True)` builds a dict per path (its segments as tuples of points),
per clip and per transparency group. Kept, they dominated reading a chart-heavy page: a
scatter plot of 29,000 markers, each its own clipped group, is 88,000 entries and 440 MB.
Here each entry is dealt with as it comes (budget.capped_drawings' callback form) and then
dropped: clips and groups only update the clip in force, a path becomes a small
PathRecord (paths.py) with its box cut to that clip. Only opaque fills keep their dict,
for the hidden-text check (pdf_hidden), which needs their segments.
"""

from __future__ import annotations

from figlint.ingest.paths import INVISIBLE, PathRecord, printed

BBox = tuple[float, float, float, float]


def read_paths(page, limit: int | None = None, matrix=None, runs: dict | None = None) -> tuple[list[PathRecord], int, list[BBox], list[dict]]:
    """(paths, how many entries the page has in all, frames, opaque fills) of one page.

    paths: every path except page-sized backgrounds and paths off the page, its box cut to
    the clip in force (entirely clipped ones dropped). The entries (paths, clips, groups)
    past `limit` (budget.MAX_PAGE_DRAWINGS) are not read; the count includes them, a fill
    and its stroke of one path counting once (as get_cdrawings' list form merges them).
    frames: the outermost clips smaller than half the page, which is how an included
    graphic (a PDF placed by \\includegraphics, whose /BBox clips it) marks its full
    extent, white margins included. fills: opaque filled paths as MuPDF lists them, their
    "rect" cut to the clip (a marker written from another has that one's segments and its
    "_shift" from them). `matrix`: the page is read turned (pdf_turn), every path and clip
    through it. `runs`: the page is read with its scatters' runs of markers collapsed, these
    by id (pdf_forms.path_pass, pdf_markers); raises pdf_markers.Collapsed where a run does
    not check, and the page is to be read again without.
    """
    from figlint.ingest import pdf_markers
    from figlint.ingest import pdf_turn
    from figlint.budget import MAX_PAGE_DRAWINGS

    if limit is None:
        limit = MAX_PAGE_DRAWINGS
    # paths come in unrotated coordinates, whatever the page's /Rotate
    w, h = pdf_turn.unrotated_size(page)  # page.rect is recomputed on every access
    if matrix is not None:
        _x0, _y0, w, h = pdf_turn.box((0, 0, w, h), matrix)
    area = w * h
    out: list[PathRecord] = []
    frames: list[BBox] = []
    fills: list[dict] = []
    clips: list[tuple[int, tuple]] = []  # (level, scissor) of the clips in force
    total = 0
    last: dict | None = None  # the last entry (a stroke of the same path merges into it)
    last_kind = None
    pending: dict | None = None  # a kept fill whose stroke may follow: recorded once that is known
    failed: list[Exception] = []
    recent: list[dict] = []  # the last paths kept, up to pdf_markers.KEEP (a run's kept paints)
    counts: list[int] = []  # the entries counted when each of them was kept
    renumber = 0  # paint numbers of the paints runs took out before this entry
    keep_recent = pdf_markers.KEEP if runs else 0

    def keep(p: dict, moved: tuple | None = None) -> None:
        """`moved`: p is a marker written from another, (that one's record, dx, dy)."""
        if moved is None and keep_recent:
            recent.append(p)
            counts.append(total)
            if len(recent) > keep_recent:
                del recent[0], counts[0]
        fo = p.get("fill_opacity")
        so = p.get("stroke_opacity")
        if (fo is not None and fo <= INVISIBLE) or (so is not None and so <= INVISIBLE):
            if moved is not None:
                raise pdf_markers.Collapsed  # its kind would change: not written from another
            p = printed(p)  # paint at opacity 0 leaves no mark
            if p is None:
                return
        x0, y0, x1, y1 = p["rect"]
        if clips:
            # max() and min() spelled out (this runs once per path): max(a, b) is a unless b > a
            c0, c1, c2, c3 = clips[-1][1]
            if c0 > x0:
                x0 = c0
            if c1 > y0:
                y0 = c1
            if c2 < x1:
                x1 = c2
            if c3 < y1:
                y1 = c3
            if x1 < x0 or y1 < y0:
                return  # clipped away entirely
        if (x1 - x0) * (y1 - y0) > 0.8 * area or x1 < 0 or y1 < 0 or x0 > w or y0 > h:
            return
        rect = (x0, y0, x1, y1)
        # pdf_hidden._opaque_fill, with the fill's opacity already read (printed() keeps it)
        if (fo is None or fo >= 0.99) and "f" in (p.get("type") or "") and p.get("fill") is not None:
            if rect != p["rect"]:
                p = {**p, "rect": rect}  # a copy: a run's kept paints are moved by their own box
            fills.append(p)
        out.append(PathRecord(p, rect) if moved is None else moved[0].moved(p, rect, moved[1], moved[2]))

    def write_run(run, clip: dict) -> None:
        """The paints a run's sentinel stands for (pdf_markers), kept as MuPDF would give them:
        each counts the entries each kept paint counted (a transparency group and its path)."""
        nonlocal total, renumber
        steps = {b - a for a, b in zip(counts, counts[1:])}
        if len(steps) != 1 or len(counts) != pdf_markers.KEEP:
            raise pdf_markers.Collapsed
        step = steps.pop()
        base = None
        for q, dx, dy in run.moved(recent, clip):
            if base is None:
                base = PathRecord(recent[-1], recent[-1]["rect"])
            total += step
            if total <= limit:
                keep(q, (base, dx, dy))
        # the paints taken out took paint numbers: what follows is numbered on from them
        renumber += (len(run.offsets) - pdf_markers.KEEP) * (recent[-1].get("seqno", 0) - recent[-2].get("seqno", 0))
        recent.clear()
        counts.clear()

    def take(p: dict) -> bool:
        nonlocal total, last, last_kind, pending
        if failed:
            return True
        try:
            if matrix is not None:
                p = pdf_turn.path_dict(p, matrix)
            if renumber and "seqno" in p:
                p["seqno"] += renumber
            kind = p.get("type")
            if kind == "s" and last_kind == "f" and last.get("items") == p.get("items"):
                # the fill's entries, and the stroke's where the fill has none
                merged = {**p, **last}
                merged["type"] = last_kind = "fs"
                if pending is last:
                    pending = None
                    keep(merged)
                last = merged
                return True
            if pending is not None:
                q, pending = pending, None
                keep(q)
            last, last_kind = p, kind
            level = p.get("level", 0)
            if kind == "clip" and runs:
                rid = pdf_markers.run_id(p)
                if rid is not None and rid in runs:
                    while clips and clips[-1][0] >= level:
                        clips.pop()  # the kept paints' own groups
                    write_run(runs[rid], p)
                    return True
            total += 1
            if total > limit:
                return True
            while clips and clips[-1][0] >= level:
                clips.pop()
            if kind == "clip" or kind == "group":
                box = p.get("scissor")
                if box is not None:
                    if clips:
                        # the clip within the one in force: max() and min() spelled out
                        c0, c1, c2, c3 = clips[-1][1]
                        b0, b1, b2, b3 = box
                        box = (c0 if c0 > b0 else b0, c1 if c1 > b1 else b1, c2 if c2 < b2 else b2, c3 if c3 < b3 else b3)
                    elif kind == "clip" and 20 < box[2] - box[0] and 12 < box[3] - box[1] and \
                            (box[2] - box[0]) * (box[3] - box[1]) < 0.5 * area and (not frames or frames[-1] != tuple(box)):
                        frames.append(tuple(box))
                    clips.append((level, box))
            elif kind == "f":
                pending = p  # its stroke may follow: one "fs" path then
            else:
                keep(p)
        except Exception as exc:  # noqa: BLE001 - never raise into MuPDF: raised below
            failed.append(exc)
        return True  # a false answer makes PyMuPDF print a warning

    page.get_cdrawings(extended=True, callback=take)
    if failed:
        raise failed[0]
    if pending is not None:
        keep(pending)
    return out, total, frames, fills

