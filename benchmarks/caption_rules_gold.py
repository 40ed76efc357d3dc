"""Caption rules (FL2xx) against human gold and on the real corpus papers.

Two measurements, written to benchmarks/RESULTS.md ("Caption rules vs human gold"):

1. Human gold (eval1200 dev: 560 figures with captions and human scores, no images).
   Without the figure only the caption-side parts of the rules can run:
   - FL202 generic-caption: exactly as the rule (it reads the caption alone);
   - FL204 proxy: the caption names no metric or measured quantity at all (the rule's
     "none of the value axis's metric words", with the axis unknown: any metric word
     counts as naming it). A proxy only: the real rule also needs a legend or an axis title;
   - FL207 cannot be judged from the caption alone (it needs the printed numbers);
     the share of captions that state a checkable value is reported instead;
   - FL206 likewise needs the figure's panels; not evaluated.
   Reported: Spearman correlation between the predicted cap (6 when flagged, else 10,
   and the number of flags) and the human caption-consistency score (C), and mean
   human C of flagged and unflagged rows.
2. Corpus: FL204/FL206/FL207 on the 7 papers in /work/shared/corpus/papers (PDF and
   main .tex); every finding is listed for inspection.

    python benchmarks/caption_rules_gold.py [--gold CSV] [--corpus DIR] [--write]

The gold file is read in place and never copied into the repository.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

GOLD = ROOT.parent / "shared" / "data" / "eval1200_dev.csv"  # next to the repository, read in place
CORPUS = ROOT.parent / "shared" / "corpus" / "papers"
CODES = ("FL204", "FL206", "FL207")


def spearman(a: list[float], b: list[float]) -> float:
    """figlint eval's Spearman (average ranks for ties); NaN where it is undefined."""
    from figlint.evaluate import spearman as rho

    r = rho(a, b)
    return float("nan") if r is None else r


def gold_rows(path: Path) -> list[dict]:
    rows = []
    with open(path, newline="") as fh:
        for r in csv.DictReader(fh):
            c = r.get("human_caption_consistency", "").strip()
            if c and r.get("caption", "").strip():
                rows.append({"caption": r["caption"], "c": float(c)})
    return rows


def caption_flags(caption: str) -> dict[str, bool]:
    from figlint.judge.captionfeatures import _METRIC, caption_body
    from figlint.rules.caption import caption_numbers, caption_verdict, norm_words, stem

    body, _ = caption_body(caption)
    generic = caption_verdict(body)[0] is not None
    metrics = {stem(m) for m in _METRIC}
    names_metric = any(w in metrics for w in norm_words(body))
    return {
        "FL202": generic,
        # as in the rule: a caption FL202 reports is not reported again by FL204
        "FL204~": not generic and not names_metric,
        "states_value": bool(caption_numbers(body)),
    }


def gold_section(path: Path) -> tuple[str, dict]:
    rows = gold_rows(path)
    t0 = time.perf_counter()
    flags = [caption_flags(r["caption"]) for r in rows]
    ms = (time.perf_counter() - t0) * 1000 / max(1, len(rows))
    human = [r["c"] for r in rows]
    out = {"rows": len(rows), "ms_per_caption": round(ms, 3)}
    lines = [
        f"Gold: `{path.name}` ({len(rows)} figures with a caption and a human C score; captions only, no images).",
        "",
        "| caption-side rule | flagged | mean human C flagged | mean human C not flagged | Spearman (cap vs C) |",
        "|---|---|---|---|---|",
    ]
    for key, label in (("FL202", "FL202 generic-caption (the rule itself)"),
                       ("FL204~", "FL204 proxy: names no metric word at all"),
                       ("any", "FL202 or FL204 proxy")):
        hit = [(f["FL202"] or f["FL204~"]) if key == "any" else f[key] for f in flags]
        caps = [6.0 if h else 10.0 for h in hit]
        rho = spearman(caps, human)
        yes = [c for c, h in zip(human, hit) if h]
        no = [c for c, h in zip(human, hit) if not h]
        m_yes = statistics.fmean(yes) if yes else float("nan")
        m_no = statistics.fmean(no) if no else float("nan")
        out[key] = {"flagged": len(yes), "mean_c_flagged": round(m_yes, 3), "mean_c_not": round(m_no, 3),
                    "spearman": round(rho, 3)}
        lines.append(f"| {label} | {len(yes)} ({100 * len(yes) / len(rows):.1f} %) | {m_yes:.2f} | {m_no:.2f} | {rho:+.3f} |")
    n_flags = [-(f["FL202"] + f["FL204~"]) for f in flags]
    rho_n = spearman(n_flags, human)
    out["spearman_flag_count"] = round(rho_n, 3)
    states = sum(f["states_value"] for f in flags)
    lines += [
        "",
        f"Spearman of minus the number of caption-side flags (0-2) with human C: {rho_n:+.3f} "
        "(all Spearman values here: positive = flagged captions get lower human C, as they should).",
        f"FL207 needs the figure's printed numbers: not evaluated on gold. {states} captions "
        f"({100 * states / len(rows):.1f} %) state a value FL207 would check.",
        "FL206 needs the figure's panels: not evaluated on gold.",
        f"Caption-side cost: {ms:.3f} ms per caption.",
    ]
    return "\n".join(lines), out


def corpus_section(corpus: Path) -> tuple[str, dict]:
    from figlint.config import Config
    from figlint.engine import run

    papers = sorted(p for p in corpus.iterdir() if (p / "truth.json").is_file())
    n_figures = 0
    findings = []
    for p in papers:
        truth = json.loads((p / "truth.json").read_text())
        n_figures += len(truth.get("figures", []))
        inputs = []
        if truth.get("pdf"):
            inputs.append(p / truth["pdf"])
        if truth.get("main_tex"):
            inputs.append(p / truth["main_tex"])
        for path in inputs:
            if not path.exists():
                continue
            res = run([str(path)], Config(select=list(CODES)))
            for f in res.findings:
                if f.code in CODES:
                    findings.append({"paper": p.name, "input": path.suffix, "code": f.code, "figure": f.figure,
                                     "message": f.message})
    per_code = {c: sorted({(f["paper"], f["figure"]) for f in findings if f["code"] == c}) for c in CODES}
    lines = [f"Corpus: {len(papers)} papers, {n_figures} figures (truth.json), each linted from its PDF and its main .tex "
             f"with `--select {','.join(CODES)}`.", "",
             "| rule | figures flagged (either route) |", "|---|---|"]
    for c in CODES:
        lines.append(f"| {c} | {len(per_code[c])} |")
    if findings:
        lines += ["", "Findings:", ""]
        for f in findings:
            lines.append(f"- {f['paper']} ({f['input']}) {f['code']} Figure {f['figure']}: {f['message']}")
    return "\n".join(lines), {"figures": n_figures, "findings": findings, "per_code": {c: len(v) for c, v in per_code.items()}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gold", type=Path, default=GOLD)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--write", action="store_true", help="write the section into benchmarks/RESULTS.md")
    ap.add_argument("--notes", type=Path, help="a Markdown file with the inspection notes to append")
    args = ap.parse_args()
    parts = []
    if args.gold.is_file():
        text, data = gold_section(args.gold)
        print(json.dumps(data, indent=1))
        parts.append(text)
    if args.corpus.is_dir():
        text, data = corpus_section(args.corpus)
        print(json.dumps(data["per_code"]), f"on {data['figures']} figures")
        for f in data["findings"]:
            print(f)
        parts.append(text)
    if args.notes and args.notes.is_file():
        parts.append(args.notes.read_text())
    body = "Command: `python benchmarks/caption_rules_gold.py --write" + (" --notes ..." if args.notes else "") + "`\n\n"
    body += "\n\n".join(parts)
    if args.write:
        from results_md import write_section

        write_section("Caption rules vs human gold", body)
    else:
        print(body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
