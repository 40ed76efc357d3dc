"""Long fuzz run: tests/test_fuzz_latex.py with fresh random examples, for a set time.

`python benchmarks/fuzz_long.py --minutes 10 [--examples 4000] [--write]` runs
`FIGLINT_FUZZ_EXAMPLES=N python -m pytest tests/test_fuzz_latex.py -q -x` in rounds
(each round draws new random examples; N scales every property, see that file's
docstring) until the time is up, stops at the first failure (hypothesis prints the
shrunk falsifying example), and with --write records the result in
benchmarks/RESULTS.md under "## Fuzz (long run)".
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from results_md import write_section  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0, help="keep starting rounds until this much time has passed")
    ap.add_argument("--examples", type=int, default=4000, help="FIGLINT_FUZZ_EXAMPLES for each round")
    ap.add_argument("--write", action="store_true", help="record the result in benchmarks/RESULTS.md")
    a = ap.parse_args()
    env = dict(os.environ, FIGLINT_FUZZ_EXAMPLES=str(a.examples))
    cmd = [sys.executable, "-m", "pytest", "tests/test_fuzz_latex.py", "-q", "-x", "-p", "no:cacheprovider",
           "--durations=0"]
    t0 = time.time()
    rounds, passed, failure = 0, 0, None
    per_test: dict[str, float] = {}
    while time.time() - t0 < a.minutes * 60:
        rounds += 1
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        tail = proc.stdout[-6000:]
        print(f"round {rounds}: exit {proc.returncode} after {time.time() - t0:.0f} s", flush=True)
        for secs, name in re.findall(r"^([\d.]+)s call\s+\S+::(\w+)", proc.stdout, re.M):
            per_test[name] = per_test.get(name, 0.0) + float(secs)
        m = re.search(r"(\d+) passed", proc.stdout)
        if proc.returncode != 0:
            failure = tail
            print(tail)
            break
        passed += int(m.group(1)) if m else 0
    elapsed = time.time() - t0
    status = "no failure" if failure is None else "FAILED (see below)"
    lines = [
        f"Command: `python benchmarks/fuzz_long.py --minutes {a.minutes:g} --examples {a.examples} --write` "
        f"(rounds of `FIGLINT_FUZZ_EXAMPLES={a.examples} python -m pytest tests/test_fuzz_latex.py`, fresh random "
        f"examples each round; {os.cpu_count()} cores, Python {platform.python_version()}).",
        "",
        f"Result: **{status}** — {rounds} round(s), {passed} property runs passed, {elapsed / 60:.1f} minutes.",
        "",
        "| property | seconds (all rounds) |",
        "|---|---|",
    ]
    lines += [f"| {name} | {secs:.0f} |" for name, secs in sorted(per_test.items(), key=lambda kv: -kv[1])]
    if failure is not None:
        lines += ["", "```", failure.strip()[-3000:], "```"]
    print("\n".join(lines))
    if a.write:
        write_section("Fuzz (long run)", "\n".join(lines))
    return 0 if failure is None else 1


if __name__ == "__main__":
    sys.exit(main())
