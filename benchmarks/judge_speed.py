"""Speed of the judge: the offline scorer per figure, and a judged run against a local OpenAI-compatible server.

    python benchmarks/judge_speed.py [--write]

1. Offline scorer (protocol `rules`): `score_figure` on every figure of the
   example paper (findings from the rules), repeated; median per figure.
   Target: < 5 ms per figure.
2. Judged run: 8 figures, agent protocol (3 calls each), judge-concurrency 4,
   against the scripted server of tests/judge/fakeserver.py on 127.0.0.1 with no
   artificial latency (so the time is figlint + litellm + loopback HTTP, i.e.
   excluding server latency), empty cache; then the same run again (all
   cached). A run with 0.2 s of server latency per call shows the concurrency.
   litellm's import is timed separately (it is paid once per process).
   Target: < 2 s for the 8 figures excluding server latency.
With --write the table goes into benchmarks/RESULTS.md under "## Judge speed".
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "judge"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def offline_speed() -> float:
    from figlint.config import Config, enabled_rules
    from figlint.engine import lint_paper
    from figlint.ingest import load
    from figlint.judge import offline

    paper = load(str(ROOT / "examples" / "paper" / "main.pdf"))
    cfg = Config()
    findings = lint_paper(paper, cfg, enabled_rules(cfg))
    figs = [f for f in paper.figures if f.gated_dimensions()]
    offline.score_figure(figs[0], findings)  # warm (constants load once)
    runs = []
    for _ in range(200):
        t0 = time.perf_counter()
        for fig in figs:
            offline.score_figure(fig, findings)
        runs.append((time.perf_counter() - t0) / len(figs))
    return statistics.median(runs) * 1000


def litellm_import_seconds() -> float:
    code = "import time, os; os.environ['LITELLM_LOCAL_MODEL_COST_MAP']='True'; t=time.perf_counter(); import litellm; print(time.perf_counter()-t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    return float(out.stdout.strip().splitlines()[-1])


def judged_run(tmp: Path, latency: float, runs: int = 1) -> list[float]:
    from fakeserver import FakeOpenAI
    from judge_helpers import by_stage, judge_config, lint, make_paper

    from figlint.judge.llm import load_litellm

    load_litellm()
    os.environ["FIGLINT_TEST_KEY"] = "sk-bench"
    times = []
    with FakeOpenAI(by_stage(), latency=latency) as srv:
        cache = tmp / f"cache-{latency}"
        os.environ["FIGLINT_CACHE_DIR"] = str(cache)
        for i in range(runs):
            paper = make_paper(tmp, 8, name=f"bench-{latency}-{i}.pdf")
            t0 = time.perf_counter()
            lint(paper, judge_config(srv, **{"judge-concurrency": 4}))
            times.append(time.perf_counter() - t0)
            assert all(f.extra.get("judge", {}).get("protocol") == "agent" for f in paper.figures)
        requests = len(srv.requests)
    return times + [requests]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows = []
    ms = offline_speed()
    rows.append(("offline scorer (protocol rules), per figure of the example paper, median of 200", f"{ms:.2f} ms",
                 "< 5 ms"))
    imp = litellm_import_seconds()
    rows.append(("`import litellm` (once per process, local cost map)", f"{imp:.2f} s", ""))
    with tempfile.TemporaryDirectory() as tmp:
        cold, warm, n = judged_run(Path(tmp), 0.0, runs=2)
        rows.append((f"judged run, 8 figures, agent (3 calls each, {n} requests in all), concurrency 4, local server "
                     "with no latency, empty cache (litellm already imported)", f"{cold:.2f} s", "< 2 s"))
        rows.append(("same 8 figures again: every stage cached (0 requests)", f"{warm:.2f} s", ""))
        lat, _n = judged_run(Path(tmp), 0.2, runs=1)
        rows.append(("judged run, 8 figures, 0.2 s server latency per call, concurrency 4 (sequential: 24 x 0.2 = "
                     "4.8 s of latency)", f"{lat:.2f} s", ""))
    table = "\n".join(["| what | time | target |", "|---|---|---|"] + [f"| {w} | {t} | {g} |" for w, t, g in rows])
    print(table)
    if a.write:
        from results_md import write_section

        write_section("Judge speed", "Produced by `python benchmarks/judge_speed.py --write`. The judged runs use "
                      "the scripted OpenAI-compatible server of tests/judge/fakeserver.py on 127.0.0.1 (litellm makes "
                      "real HTTP requests to it); their time includes cropping the 8 figures from the PDF, prompts, "
                      "litellm and loopback HTTP, and excludes server latency (the server answers at once).\n\n"
                      + table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
