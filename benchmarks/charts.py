"""Acceptance benchmark of the misleading-design rules (FL401-FL407) on labelled charts.

`python benchmarks/charts.py [--write] [--jobs N] [--shared DIR]` runs figlint on
every chart of ../shared/corpus/charts (labels.jsonl: synthetic MisleadingChartQA
sample; real/labels.jsonl: real-world charts), through the image route exactly as
`figlint chart.png` does, and reports per taxonomy label the precision, recall
and F1 of the rule mapped to it. All those charts are misleading in some way, so
precision counts the rule firing on charts that carry *other* defects. The false
positive rate on clean-ish figures comes from the papers in ../shared/corpus/papers:
every figure file their LaTeX sources include (truth.json `graphics`), and the
figures `read_pdf` finds in paper.pdf when that route is available. Findings on
those figures are listed for inspection. With --write the table goes into
benchmarks/RESULTS.md under "## Misleading-design rules on charts". Nothing from
../shared is copied anywhere: only counts and figure names are written.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

# taxonomy label of the chart sets (corpus/charts/README.md) -> the rule that detects it
RULES = {"truncated_axis": "FL401", "dual_axis": "FL402", "inverted_axis": "FL403",
         "inappropriate_scale": "FL404", "inconsistent_ticks": "FL405", "missing_axis_label": "FL406",
         "area_encoding": "FL407"}
TARGETS = {"truncated_axis": 0.8, "inverted_axis": 0.85, "dual_axis": 0.92}  # issue 13, acceptance point 2
FIGURE_SUFFIXES = {".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"}


NOTES = """
Notes (inspected by hand):

- Paper figures, value-profiles paper.pdf Figure 6 (a diagram of small highlighted table cells
  beside step numbers 1-2-3) was briefly read as a truncated bar chart once the PDF route kept
  filled boxes apart; fixed: boxes mostly covered by text are highlights, not bars, and bars must
  cover at least 15 % of their axis' tick span.
- Paper figures otherwise: no FL4xx finding on the 108 figure readings (54 graphics files from the
  LaTeX sources, 54 figures that `read_pdf` finds in the PDFs). Vector figures whose text
  was converted to outlines (most of bundler-eurosys) are rendered and read by OCR. Its
  box plots (boxes whose lower edges sit at a slowdown of 1) were read as truncated bars
  until box plots were recognised (median-split boxes, whiskers on the box centres); they
  are not flagged now. No true truncated, dual or inverted value axis was found in these
  papers (bundler-eurosys's per-panel y scales are separate panels, not dual axes).
- FL402 recall: a right-hand axis whose tick marks OCR glues on as minus signs ("-2,880",
  "2,910", "-2,850": not one monotonic scale signed, a clean one without the dashes) and a
  value badge printed over the tick column (the last price, "2,709.80" over "2,730") used to
  make the whole column unreadable; both are repaired in features/axes.py (003036 now found).
- New rules (FL404-FL407) are scored against the closest gallery label, which is not
  their exact defect: FL404 (unlabelled log scale) against inappropriate_scale (mostly power
  scales, which FL404 does not claim); FL405's synthetic "false positives" are power-scale
  axes (equal value steps at growing distances), a true uneven-interval defect labelled
  inappropriate_scale there. FL406's "false positives" are charts that do lack an axis title
  but whose gallery label names another misleader (labels list the highlighted defect only).
  FL407 reads vector paths only, and every gallery chart is a raster: 0 recall by design.
- Paper figures: FL405 flagged two stacked panels sharing a label column (value-profiles
  first_acc) until a column splitting at its widest gap into two evenly spaced parts was
  taken as two panels; FL406 flagged a bar chart whose heading says "(nats)" until the
  chart's own text counted like the caption.
- FL403's one false positive on the real charts (003090, a 3D geological chart whose depth
  axis does grow downward; the gallery labels it only as area encoding) is gone: the axes of a
  3D plot in perspective are no longer checked (their direction on the page is the camera's, and
  the vertical edge of such subsurface views is depth), nor is an axis whose title names a
  quantity drawn reversed by convention (depth, rank, magnitude, pressure, time before present;
  a raster y title read upright). It was FL402's one false positive too (a northing column on
  the box's slanted left edge against the depth column on its right) until labels drifting
  sideways along their column, a 3D box's receding edge, were taken to mark a 3D plot, whose
  left and right columns are different dimensions (features/axes.py `oblique`; fixture box_3d).
- FL402 misses (4 of 27): a phone screenshot of a poster photo (000242) and a 206 px web image
  (003196) whose tick labels OCR cannot read even at 4-6x; a magazine cover with no axes (004729);
  four staggered log-scale series whose columns barely overlap (001711). Found since the last
  run (features/second_axis.py): a right column of which OCR read only "12" and "10" (003465:
  the labels "4" predicted by those two is read by the recogniser alone on its crop); a left
  column misread on a 250 px image but standing on the right axis' rows with other values
  (005991); value labels of two series stacked against one scale (003470: 327,000 printed
  above 935,573; 005378: "-26.8%" above "15.6", far from where the 0-40 axis puts it).
  005378 was missed on main 72d0e4d (empty cache): its bars' value labels (12.7, 12.1, ...) read as a
  bottom axis row cut the labels above them off, and its gridlines were taken for the edges of
  stacked panels. A numeric row inside the value axis' span is no longer the bottom axis, and a
  line on a row of that axis' ticks is a gridline (fixtures value_labels_two_scales/one_scale).
- FL401 misses (16 of 44): bars not found as solid rectangles (3D, gradient or textured
  bars, photographs), value-axis labels not read, composite images of two charts. Zoomed
  line charts (4 in the synthetic set) are deliberately not flagged.
- Raster readings, fixed this round (charts branch): a standalone image that records no
  resolution was read as if printed at the assumed 300 DPI, so the text detector saw screen
  graphics shrunk to two thirds (capped at 1,024 px) and small web charts below the 640 px
  short side it expects; most real charts lost tick labels 7-10 px high (FL402 fell to 14 of
  27, FL401 to 22 of 44 before the fix). Also fixed: pale grey tick labels and labels whose
  glyphs run together (blurred JPEGs) failed the cheap text test, so OCR never ran (003669,
  005357); loose OCR boxes of an enlarged thumbnail overlapped and the column was taken for
  one carrying a value badge (000409); a tick row read as one line "10 15 20 ... 80"
  (002970); joined or misread value labels and badges hanging over a bar's edge (002644,
  004419); a picture holding two bar charts was measured on its largest group only (001982).
- Vector figures: minus signs drawn as filled bars (no glyph in the font) were dropped, so
  "0, -5, ... -30" read as an axis growing downward and colour bars -0.6 .. 0.6 as inverted
  (qleet-revtex entanglement spectrum and gradient landscapes, dp-thesis eigenvalue fit:
  FL403 on paper figures 6 -> 1). The one left is new and false: dp-thesis paper.pdf
  Figure 3.4, a grid of results whose row labels are learning rates "10^-3/2^k", read as
  a column 2, 4, 6, 8 growing downward (the exponents k); not fixed yet.
- FL401 misses (13 of 44): photographs and slides of charts (000804, 004864, 002327), 3D or
  textured bars and areas (001181, 003555), tick labels OCR misreads on 120-260 px images
  (003299, 005026, 002189), an axis whose labels are unevenly placed (003687, FL405's
  defect), an axis through zero with a cut elsewhere (004071), labels that are sentences
  ("Current contribution 1% of GDP", 006375), a chart whose bars start at a zero drawn
  over photographs (000100), a line chart (005139: lines are not checked by design).
- FL403 misses (2 of 9): a 197 px photo of a magazine cover with no readable axis (004729), a
  map's colour scale labelled only at its two ends, 1 and 50, whose inversion is in the colours
  (003045). Found since charts16: bars hanging from one top edge with no value axis printed
  (005582; features/hanging.py: at least three evenly spaced bars of one width, nothing stacked
  below, no negative number, no value axis beside them; fixtures hanging_bars, stacked_full,
  negative_bars). Dates the numeric reading does not take ("Mar 24", "Jan-20", "Q3 2018") are
  read as times (features/dates.py): reversed date axes of the synthetic sample are found
  (FL403 there 12/0/5 -> 16/0/1). Small images were measured, not changed: the 21 real charts
  under 300 px, enlarged 2x or 3x before reading, gave the same 277 tokens and 11/13/12 clean
  axes (gains and losses on different images; the detector already sees them at 3-5x). FL402
  misses (4 of 27) are those listed above (000242, 001711, 003196, 004729).
- FL401, fixed earlier: an area chart with a pale fill cut by grid lines (000177) used to
  be found only by accident, as the strips under its lowest grid line read as bars, with the
  baseline value off; pale fills now count as filled (grid lines closed over), and it is
  read as an area from 60,000 (001709 is found the same way). The strips themselves, cells
  of one length, are no longer bars: a colour bar beside a heatmap read that way made FL401
  report the heatmap as a truncated area chart (a new clean-figure gallery test caught it).
"""


def default_shared() -> Path:
    return Path(os.environ.get("FIGLINT_SHARED") or ROOT.parent / "shared")


def _lint_file(path: str) -> dict:
    from figlint.config import Config
    from figlint.engine import lint_path

    t0 = time.perf_counter()
    res = lint_path(path, Config(select=list(RULES.values()), ocr="on"))
    return {"path": path, "codes": sorted({f.code for f in res.findings if f.code in RULES.values()}),
            "messages": [f"{f.code} {f.message}" for f in res.findings if f.code in RULES.values()],
            "error": res.error, "seconds": time.perf_counter() - t0}


def _lint_paper_pdf(path: str) -> list[dict]:
    from figlint.config import Config
    from figlint.engine import lint_path

    res = lint_path(path, Config(select=list(RULES.values()), ocr="on"))
    if res.paper is None:
        return []
    out = []
    for fig in res.paper.figures:
        mine = [f for f in res.findings if f.figure == fig.number and f.code in RULES.values()]
        out.append({"path": f"{path}#Figure {fig.number}", "codes": sorted({f.code for f in mine}),
                    "messages": [f"{f.code} {f.message}" for f in mine], "error": None})
    return out


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def chart_sets(shared: Path) -> dict[str, list[tuple[str, set]]]:
    sets = {}
    for name, rel in (("synthetic", "corpus/charts/labels.jsonl"), ("real", "corpus/charts/real/labels.jsonl")):
        f = shared / rel
        if not f.exists():
            continue
        rows = []
        for line in f.read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                rows.append((str(f.parent / d["image"]), set(d.get("taxonomy") or ())))
        sets[name] = rows
    return sets


def paper_figure_files(shared: Path) -> list[str]:
    out = []
    for truth in sorted((shared / "corpus/papers").glob("*/truth.json")):
        d = json.loads(truth.read_text())
        src = truth.parent / "source"
        for fig in d.get("figures", []):
            for g in fig.get("graphics", []):
                p = src / g
                if p.suffix.lower() in FIGURE_SUFFIXES and p.is_file():
                    out.append(str(p))
    return sorted(set(out))


def has_read_pdf() -> bool:
    try:
        from figlint.ingest.pdf import read_pdf  # noqa: F401
    except Exception:  # noqa: BLE001
        return False
    return True


def score(rows: list[tuple[str, set]], results: dict[str, dict]) -> list[tuple]:
    table = []
    for label, code in RULES.items():
        tp = fp = fn = 0
        for path, labels in rows:
            fired = code in results[path]["codes"]
            has = label in labels
            tp += fired and has
            fp += fired and not has
            fn += has and not fired
        p, r, f = _prf(tp, fp, fn)
        table.append((label, code, tp + fn, tp, fp, fn, p, r, f))
    return table


def timings() -> list[tuple[str, float, str]]:
    """All rules on a vector figure; on raster figures with OCR (uncached, cached); a whole process."""
    import subprocess

    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures.charts import CHARTS, make_chart

    from figlint.config import Config
    from figlint.engine import lint_path
    from figlint.rules.registry import all_rules

    rules = all_rules()
    cfg = Config(select=["ALL"], ocr="on")
    rows = []
    saved = os.environ.get("FIGLINT_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FIGLINT_CACHE_DIR"] = str(Path(tmp) / "cache")
        vec = make_chart("dual_axis", Path(tmp) / "dual_axis.pdf")
        lint_path(str(vec), cfg, rules)  # warm imports
        vt = []
        for _ in range(15):
            t0 = time.perf_counter()
            lint_path(str(vec), cfg, rules)
            vt.append(time.perf_counter() - t0)
        rows.append(("all rules on a vector PDF chart (ingest + analysis + rules), in process",
                     statistics.median(vt) * 1000, "< 50 ms"))
        pngs = [make_chart(n, Path(tmp) / f"{n}.png", dpi=200) for n in CHARTS]
        lint_path(str(pngs[0]), cfg, rules)  # loads OpenCV, the OCR models, warms onnxruntime
        cold, warm = [], []
        for p in pngs[1:]:
            t0 = time.perf_counter()
            lint_path(str(p), cfg, rules)
            cold.append(time.perf_counter() - t0)
        from figlint.features import ocr as O

        O._MEMO.clear()
        for p in pngs[1:]:
            t0 = time.perf_counter()
            lint_path(str(p), cfg, rules)
            warm.append(time.perf_counter() - t0)
        rows.append((f"all rules on a raster PNG chart (680×480 px), OCR not cached, in process "
                     f"(median of {len(cold)}; max {max(cold) * 1000:.0f} ms)", statistics.median(cold) * 1000, "< 1500 ms"))
        rows.append(("same, OCR read from the disk cache", statistics.median(warm) * 1000, ""))
        fresh = Path(tmp) / "cache2"
        env = dict(os.environ, FIGLINT_CACHE_DIR=str(fresh))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "figlint", str(pngs[1])], capture_output=True, env=env, cwd=ROOT)
        rows.append(("whole `figlint chart.png` process, empty OCR cache (start-up, model load, OCR)",
                     (time.perf_counter() - t0) * 1000, ""))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "figlint", str(pngs[1])], capture_output=True, env=env, cwd=ROOT)
        rows.append(("whole `figlint chart.png` process, OCR cached", (time.perf_counter() - t0) * 1000, ""))
        shared = default_shared()
        real = chart_sets(shared).get("real") if (shared / "corpus").is_dir() else None
        if real:
            sample = [p for p, _ in real[::10]]  # every 10th real-world chart, any size
            os.environ["FIGLINT_CACHE_DIR"] = str(Path(tmp) / "cache3")
            times = []
            for p in sample:
                t0 = time.perf_counter()
                lint_path(p, cfg, rules)
                times.append(time.perf_counter() - t0)
            rows.append((f"all rules on a real-world chart, OCR not cached, in process (median of {len(times)}; "
                         f"max {max(times) * 1000:.0f} ms)", statistics.median(times) * 1000, "< 1500 ms"))
    if saved is None:
        os.environ.pop("FIGLINT_CACHE_DIR", None)
    else:
        os.environ["FIGLINT_CACHE_DIR"] = saved
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("--write", action="store_true", help="write the table into benchmarks/RESULTS.md")
    ap.add_argument("--dump", type=Path, help="write per-image results as JSON here")
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--timing-only", action="store_true", help="print the speed table only")
    a = ap.parse_args()
    if a.timing_only:
        for what, ms, budget in timings():
            print(f"| {what} | {ms:.0f} ms | {budget} |")
        return 0
    shared = a.shared.resolve()
    if not (shared / "corpus").is_dir():
        print(f"no corpus at {shared}", file=sys.stderr)
        return 2
    os.environ.setdefault("FIGLINT_CACHE_DIR", str(ROOT / ".figlint_cache"))
    sets = chart_sets(shared)
    papers = paper_figure_files(shared)
    paths = [p for rows in sets.values() for p, _ in rows] + papers
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        results = dict(zip(paths, pool.map(_lint_file, paths, chunksize=4)))
        pdf_figs = []
        pdf_note = "pending: figlint.ingest.pdf.read_pdf is not available yet"
        if has_read_pdf():
            pdfs = sorted(str(p) for p in (shared / "corpus/papers").glob("*/paper.pdf"))
            for figs in pool.map(_lint_paper_pdf, pdfs):
                pdf_figs += figs
            pdf_note = f"{len(pdfs)} paper PDFs, {len(pdf_figs)} figures found by read_pdf"
    wall = time.perf_counter() - t0

    lines = []
    for name, rows in sets.items():
        lines += [f"### {name} charts ({len(rows)} images)", "",
                  "| label | rule | labelled | TP | FP | FN | precision | recall | F1 | target F1 |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for label, code, n, tp, fp, fn, p, r, f in score(rows, results):
            target = f">= {TARGETS[label]}" if name == "real" and label in TARGETS else ""
            if n == 0 and fp == 0:
                lines.append(f"| {label} | {code} | 0 | 0 | 0 | 0 | n/a | n/a | n/a | none labelled |")
                continue
            lines.append(f"| {label} | {code} | {n} | {tp} | {fp} | {fn} | {p:.2f} | {r:.2f} | {f:.2f} | {target} |")
        lines.append("")
    errors = [p for p in paths if results[p]["error"]]

    paper_rows = [results[p] for p in papers] + pdf_figs
    lines += [f"### False positives on the figures of the corpus papers ({len(papers)} figure files"
              + (f"; PDF route: {pdf_note}" if pdf_note else "") + ")", "",
              "| rule | figures flagged | of | rate | target |", "| --- | --- | --- | --- | --- |"]
    for label, code in RULES.items():
        flagged = [r for r in paper_rows if code in r["codes"]]
        rate = len(flagged) / len(paper_rows) if paper_rows else 0.0
        lines.append(f"| {code} | {len(flagged)} | {len(paper_rows)} | {rate:.1%} | <= 2% |")
    lines.append("")
    flagged = [r for r in paper_rows if r["codes"]]
    if flagged:
        lines += ["Findings on paper figures (inspected by hand, see the notes below the table):", ""]
        for r in flagged:
            rel = os.path.relpath(r["path"].split("#")[0], shared / "corpus/papers")
            where = rel + ("#" + r["path"].split("#")[1] if "#" in r["path"] else "")
            lines.append(f"- `{where}`: " + "; ".join(r["messages"]))
        lines.append("")
    secs = [results[p]["seconds"] for p in paths if "seconds" in results[p]]
    lines += [f"Wall time {wall:.0f} s for {len(paths)} files with {a.jobs} processes "
              f"(median {statistics.median(secs) * 1000:.0f} ms per file, OCR cache: $FIGLINT_CACHE_DIR); "
              f"{len(errors)} input errors.", ""]
    if not a.no_timing:
        # timed in a fresh interpreter: nothing loaded or cached by the run above
        import subprocess

        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--timing-only"],
                              capture_output=True, text=True, cwd=ROOT)
        rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("| ")]
        lines += ["### Speed", "", f"Machine: {os.cpu_count()} CPUs; medians of in-process runs unless said.", "",
                  "| what | median | budget |", "| --- | --- | --- |", *rows, ""]
    lines += [NOTES.strip(), "",
              "Command: `python benchmarks/charts.py --write` (from the repository root, with ../shared present)."]
    body = "\n".join(lines)
    print(body)
    if a.dump:
        a.dump.write_text(json.dumps({"results": results, "pdf_figures": pdf_figs}, indent=1))
    if a.write:
        from results_md import write_section

        write_section("Misleading-design rules on charts", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
