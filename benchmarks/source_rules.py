"""Accuracy of the source-only rules against the facts in the corpus truth.json files.

For every paper under ../shared/corpus/papers (next to the repository) this runs
figlint's LaTeX route end to end (`figlint.engine.lint_path` on the paper's main
.tex, default configuration: the rules, inline suppressions, ignores) and compares
the findings with what truth.json says:

* FL203 missing-label, per figure: truth figures whose `labels` is empty (a figure
  whose only label sits before its caption is expected under FL306 instead);
* FL301 uncited-figure, per figure: truth figures with neither `ref_sites` nor
  `literal_sites` (a figure cited only by hard-coded text IS cited: FL305 fires for
  the text, FL301 does not);
* FL305 hardcoded-figure-number, per mention: truth `literal_sites` (file, line);
* FL306 label-before-caption, per figure: truth `misplaced_labels`;
* FL307 missing-graphics-file, per (figure, file): truth graphics not on disk.

Truth is built from the sources after removing comments and disabled blocks, but it
does not expand user macros: a site inside the argument of a macro defined to throw
it away (`\\newcommand{\\cut}[1]{}`) is in truth although LaTeX never prints it. Such
sites are counted twice: "raw" (as truth lists them) and "adjudicated" (left out,
because figlint's reader shows they are not in the document); both are reported.

Run: python benchmarks/source_rules.py [--write] [--misses]
(--write replaces the "Source rules vs truth.json" section of benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

CORPUS = REPO.parent / "shared" / "corpus" / "papers"
HEADING = "Source rules vs truth.json"
RULES = ("FL203", "FL301", "FL305", "FL306", "FL307")
UNITS = {"FL203": "figure", "FL301": "figure", "FL305": "mention (file:line)",
         "FL306": "figure", "FL307": "figure × file"}


@dataclass
class Tally:
    truth: set = field(default_factory=set)
    ours: set = field(default_factory=set)
    excluded: set = field(default_factory=set)  # truth items not in the document (adjudicated out)

    def add(self, other: "Tally", tag: str) -> None:
        self.truth |= {(tag, *k) for k in other.truth}
        self.ours |= {(tag, *k) for k in other.ours}
        self.excluded |= {(tag, *k) for k in other.excluded}

    def counts(self, adjudicated: bool) -> tuple[int, int, int]:
        truth = self.truth - self.excluded if adjudicated else self.truth
        tp = len(truth & self.ours)
        return tp, len(self.ours - truth), len(truth - self.ours)


def _discarded(src: Path, main: str):
    """A predicate (file, line, column) -> True when that position is not in the document.

    Uses figlint's reader (rooted at source/, so paths compare with truth): positions in
    text the reader dropped (comments, disabled blocks) or in arguments a macro discards.
    """
    from figlint.ingest.texscan import scan_document
    from figlint.ingest.texsource import load_document

    doc = load_document(str(src / main), str(src))
    scan = scan_document(doc)
    index = {f.rel: k for k, f in enumerate(doc.files)}
    starts = [a for a, _ in scan.skipped]

    def flat(file: str, line: int, column: int) -> int | None:
        k = index.get(file)
        if k is None:
            return None
        f = doc.files[k]
        if line - 1 >= len(f.line_starts):
            return None
        off = f.line_starts[line - 1] + column - 1
        for out, fi, o, n in zip(doc._out, doc._file, doc._off, doc._len):
            if fi == k and o <= off < o + n:
                return out + off - o
        return None

    def gone(file: str, line: int, column: int) -> bool:
        pos = flat(file, line, column)
        if pos is None:
            return True
        j = bisect.bisect_right(starts, pos) - 1
        return j >= 0 and scan.skipped[j][0] <= pos < scan.skipped[j][1]

    return gone


def evaluate(folder: Path, show: bool = False) -> dict[str, Tally]:
    from figlint.config import Config
    from figlint.engine import lint_path

    truth = json.loads((folder / "truth.json").read_text())
    src = folder / "source"
    result = lint_path(str(src / truth["main_tex"]), Config())
    paper = result.paper
    root = Path(paper.root) if paper is not None and paper.root else src

    def rel(file: str | None) -> str | None:
        return None if file is None else os.path.relpath(os.path.join(root, file), src).replace(os.sep, "/")

    gone = _discarded(src, truth["main_tex"])
    out = {code: Tally() for code in RULES}
    for tf in truth["figures"]:
        n = tf["number"]
        if tf.get("misplaced_labels"):
            out["FL306"].truth.add((n,))
        elif not tf["labels"]:
            out["FL203"].truth.add((n,))
        if not tf["ref_sites"] and not tf["literal_sites"]:
            out["FL301"].truth.add((n,))
        for s in tf["literal_sites"]:
            key = (s["file"], s["line"])
            out["FL305"].truth.add(key)
            if gone(s["file"], s["line"], s["column"]):
                out["FL305"].excluded.add(key)
        for g in tf["graphics"]:
            if not (src / g).is_file():
                out["FL307"].truth.add((n, g))
    for f in result.findings:
        if f.code in ("FL203", "FL301", "FL306"):
            out[f.code].ours.add((f.figure,))
        elif f.code == "FL305":
            out[f.code].ours.add((rel(f.location.file), f.location.line))
        elif f.code == "FL307":
            out[f.code].ours.add((f.figure, f.evidence.get("file")))
    if show:
        for code, t in out.items():
            for k in sorted(t.truth - t.ours, key=str):
                print(f"  {folder.name} {code} missed {k}{' (not in the document)' if k in t.excluded else ''}")
            for k in sorted(t.ours - t.truth, key=str):
                print(f"  {folder.name} {code} extra {k}")
    return out


def ratio(a: int, b: int) -> str:
    return "–" if b == 0 else f"{a / b:.2f}"


def summarize(per_paper: dict[str, dict[str, Tally]]) -> dict[str, dict]:
    """Per rule: truth/ours sizes and TP/FP/FN/precision/recall, raw and adjudicated."""
    total = {code: Tally() for code in RULES}
    for name, tallies in per_paper.items():
        for code, t in tallies.items():
            total[code].add(t, name)
    out = {}
    for code, t in total.items():
        row = {"truth": len(t.truth), "ours": len(t.ours), "excluded": len(t.excluded)}
        for adj in (False, True):
            tp, fp, fn = t.counts(adj)
            key = "adj" if adj else "raw"
            row[key] = {"tp": tp, "fp": fp, "fn": fn,
                        "precision": tp / (tp + fp) if tp + fp else 1.0,
                        "recall": tp / (tp + fn) if tp + fn else 1.0,
                        "p": ratio(tp, tp + fp), "r": ratio(tp, tp + fn)}
        out[code] = row
    return out


def table(per_paper: dict[str, dict[str, Tally]]) -> str:
    summary = summarize(per_paper)
    lines = [
        "Produced by `python benchmarks/source_rules.py --write`: figlint's LaTeX route "
        "(`engine.lint_path` on each paper's main file, default configuration) against the "
        "facts in truth.json, over the corpus papers. FL203: figures with no label; FL301: "
        "figures with neither `ref_sites` nor `literal_sites` (a figure cited only by hard-coded "
        "text is cited: FL305 reports the text); FL305: `literal_sites`, matched on file and "
        "line; FL306: `misplaced_labels`; FL307: truth graphics missing on disk. "
        "\"Adjudicated\" leaves out truth items figlint's reader shows are not in the document "
        "(inside an argument a user macro discards); the raw columns count them. Target for "
        "FL203, FL301 and FL305: precision and recall >= 0.98.",
        "",
        "| rule | unit | truth | findings | TP | FP | FN | precision | recall "
        "| raw TP/FP/FN | raw precision | raw recall |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for code in RULES:
        s = summary[code]
        a, r = s["adj"], s["raw"]
        truth = f"{s['truth'] - s['excluded']}" + (f" (+{s['excluded']} not in the document)" if s["excluded"] else "")
        lines.append(
            f"| {code} | {UNITS[code]} | {truth} | {s['ours']} | {a['tp']} | {a['fp']} | {a['fn']} "
            f"| {a['p']} | {a['r']} | {r['tp']}/{r['fp']}/{r['fn']} | {r['p']} | {r['r']} |")
    lines += ["", "Per paper (adjudicated TP/FP/FN):", "",
              "| paper | " + " | ".join(RULES) + " |", "|---|" + "---|" * len(RULES)]
    for name, tallies in per_paper.items():
        cells = []
        for code in RULES:
            tp, fp, fn = tallies[code].counts(True)
            cells.append(f"{tp}/{fp}/{fn}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    excluded = [(name, k) for name, ts in per_paper.items() for t in ts.values() for k in t.excluded]
    if excluded:
        lines += ["", "Left out by adjudication: " + "; ".join(
            f"{name} `{':'.join(str(x) for x in k)}`" for name, k in excluded)
            + " (inside `\\cut{...}`, a macro defined to discard its argument: not printed)."]
    lines += ["", "The corpus is small (54 figures): these counts show the rules agree with truth on "
              "real papers, not that they reach 0.98 in general; tests/test_source_rules.py covers "
              "the hard cases (wrapper macros, \\autoref, lowercase \\cref, dotted labels, "
              "\\caption[short]{long}, figure*, subfigure labels, appendix figures, minipages, "
              "labels in another file)."]
    return "\n".join(lines)


def run(show: bool = False) -> dict[str, dict[str, Tally]]:
    papers = sorted(p for p in CORPUS.iterdir() if (p / "truth.json").is_file())
    return {p.name: evaluate(p, show) for p in papers}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    ap.add_argument("--misses", action="store_true", help="list what did not match")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}")
        return 1
    text = table(run(args.misses))
    print(text)
    if args.write:
        from results_md import write_section

        write_section(HEADING, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
