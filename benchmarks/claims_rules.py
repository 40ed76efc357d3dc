"""False alarms of the claim rules (FL408, FL5xx) on the shared paper corpus.

For every paper under ../shared/corpus/papers (next to the repository) this lints the
compiled PDF and the main .tex (with that PDF, `--pdf`) with only the claim rules
selected, and prints per rule how many of the corpus figures it flags (a figure counts
once, whichever route flagged it) and every finding with its sentence, so each can be
inspected by hand. It also times the claim rules on every vector figure.

Run: python benchmarks/claims_rules.py [--write]
(--write replaces the "Claim rules on the corpus papers" section of benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "papers"
HEADING = "Claim rules on the corpus papers"
RULES = ["FL408", "FL501", "FL502", "FL503", "FL504"]


NOTE = """Inspected by hand: only two corpus sentences pass the rules' text triggers at all —
value-profiles Figure 7's caption ("... outperforming the best demographic grouping", FL408: the
figure shows error bars, so it is not judged) and the value-profiles sentence "(results in
Figure A6)" (FL501: "results in" followed by a figure reference is not causal). No true claim
defects were found in the corpus: its citing text rarely states trends, significance or causes."""


def lint(path: Path, pdf: Path | None = None):
    cfg = Config(select=list(RULES), pdf=str(pdf) if pdf else None)
    return run([str(path)], cfg).results[0]


def timing(paper_dir: Path) -> list[float]:
    """Seconds of all claim rules on each vector figure of a paper's PDF (analysis included)."""
    from figlint.ingest import load
    from figlint.rules.registry import Context, get_rule

    paper = load(str(paper_dir / "paper.pdf"))
    out = []
    for fig in paper.figures:
        if fig.kind != "vector":
            continue
        t0 = time.perf_counter()
        for code in RULES:
            r = get_rule(code)
            list(r.check(fig, Context(r, paper, {})) or ())
        out.append(time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}")
        return 0
    flagged: dict[str, set] = {c: set() for c in RULES}
    lines: list[str] = []
    figures = 0
    times: list[float] = []
    for d in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        truth = json.loads((d / "truth.json").read_text())
        figures += len(truth.get("figures", []))
        for route, res in (("pdf", lint(d / "paper.pdf")),
                           ("latex", lint(d / "source" / truth["main_tex"], d / "paper.pdf"))):
            for f in res.findings:
                if f.code not in flagged:
                    continue
                flagged[f.code].add((d.name, f.figure))
                sent = " ".join(str(f.evidence.get("sentence", "")).split())
                lines.append(f"- {f.code} {d.name} Figure {f.figure} ({route}): \"{sent[:200]}\" — {f.message[:160]}")
        times += timing(d)
    out = [f"{figures} figures in {len(list(CORPUS.iterdir())) - 1} papers; claim rules {', '.join(RULES)}, "
           "both routes (PDF, and .tex with its PDF).", "", "| rule | figures flagged | share |", "|---|---|---|"]
    for code in RULES:
        n = len(flagged[code])
        out.append(f"| {code} | {n} | {100 * n / max(figures, 1):.1f} % |")
    out.append("")
    out.append("Findings:" if lines else "Findings: none.")
    out += sorted(set(lines))
    if times:
        times.sort()
        out += ["", f"Speed: all claim rules on each of {len(times)} vector figures of the corpus PDFs (analysis "
                f"included when a claim triggers it): median {1000 * times[len(times) // 2]:.1f} ms, "
                f"max {1000 * times[-1]:.1f} ms."]
    out += ["", NOTE]
    text = "\n".join(out)
    print(text)
    if args.write:
        from results_md import write_section

        write_section(HEADING, "`python benchmarks/claims_rules.py --write`\n\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
