"""Peak memory of figlint on every field-audit paper, both routes (issue 14's 800 MB budget).

Each paper of benchmarks/field_audit/papers whose build is finished under --build-dir (the
layout of benchmarks/field_audit/run.py) is linted as a whole process, from its PDF and from
its main file with the PDF, `--preview --no-cache --format json`, two at a time; peak = the
process's maximum resident set size (GNU time's %M), CPU = user + system. Prints the runs over
the budget and the largest ten; `--json FILE` keeps every run.

    python benchmarks/field_memory.py [--build-dir DIR] [--jobs 2] [--default] [--json FILE]
"""

from __future__ import annotations

import argparse
import glob
import json
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MB = 800


def jobs(build_dir: Path) -> list[tuple[str, str, list[str]]]:
    out = []
    for m in sorted((ROOT / "benchmarks" / "field_audit" / "papers").glob("*.json")):
        rec = json.loads(m.read_text())
        dirs = glob.glob(str(build_dir / f"{m.stem}@*"))
        if not dirs:
            continue
        main = Path(dirs[0]) / rec["main"]
        pdf = main.with_suffix(".pdf")
        if pdf.is_file():
            out.append((m.stem, "pdf", [str(pdf)]))
            out.append((m.stem, "latex", [str(main), "--pdf", str(pdf)]))
    return out


def run(job, preview: bool, keep: Path | None = None):
    name, route, args = job
    out = str(keep / f"{name}.{route}.json") if keep else "/dev/null"
    cmd = ["/usr/bin/time", "-f", "%M %U %S", sys.executable, "-m", "figlint", *args, "--no-cache",
           "--format", "json", "-o", out] + (["--preview"] if preview else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, cwd="/tmp")
        kb, user, sys_ = p.stderr.strip().splitlines()[-1].split()
        return {"paper": name, "route": route, "peak_mb": round(int(kb) / 1024, 1),
                "cpu_s": round(float(user) + float(sys_), 2), "exit": p.returncode}
    except (subprocess.TimeoutExpired, ValueError, IndexError) as exc:
        return {"paper": name, "route": route, "peak_mb": None, "cpu_s": None, "exit": str(exc)[:80]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", type=Path, default=Path("/tmp/figlint_field_audit"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--default", action="store_true", help="default rules instead of --preview")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="papers whose name contains one of these")
    ap.add_argument("--keep", type=Path, metavar="DIR", help="write each run's JSON report into DIR")
    a = ap.parse_args()
    todo = [j for j in jobs(a.build_dir) if not a.only or any(n in j[0] for n in a.only)]
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    if not todo:
        print(f"no finished builds under {a.build_dir}", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(a.jobs) as ex:
        rows = list(ex.map(lambda j: run(j, not a.default, a.keep), todo))
    ok = [r for r in rows if r["peak_mb"] is not None]
    over = sorted((r for r in ok if r["peak_mb"] > BUDGET_MB), key=lambda r: -r["peak_mb"])
    print(f"{len(rows)} runs on {len({r['paper'] for r in rows})} papers; median peak "
          f"{statistics.median(r['peak_mb'] for r in ok):.0f} MB; over {BUDGET_MB} MB: {len(over)} runs on "
          f"{len({r['paper'] for r in over})} papers; failed to measure: {len(rows) - len(ok)}")
    for r in sorted(ok, key=lambda r: -r["peak_mb"])[:10]:
        print(f"  {r['paper']} {r['route']}: {r['peak_mb']:.0f} MB, {r['cpu_s']:.1f} s CPU")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
