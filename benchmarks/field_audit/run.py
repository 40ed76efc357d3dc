"""Field audit: rebuild audited public papers, rerun figlint, score its findings against verdicts.

Each audited paper is one JSON file in papers/ (format in README.md). Given the folder
the repositories were fetched into (one checkout per `<owner>__<name>`), this script

1. exports each paper's audited commit into a scratch folder (`git archive`, so the
   checkout itself is never written to) and compiles it there with the paper's `build`
   command (cached per commit under --build-dir);
2. runs figlint on both routes, the PDF alone and the sources with that PDF, with every
   default or preview rule on (`--preview`; opt-in rules such as FL601 stay off), JSON output;
3. matches each finding to a verdict by (route, figure, code, key), where key is a
   digest of the message with numbers blanked plus an occurrence count (see `finding_key`);
4. prints per-rule precision (true / audited; debatable counts as not true), per-rule
   counts of current findings on raster and vector figures, and the NEW findings that
   have no verdict yet, to audit next.

`--write` also replaces the "Field audit" section of benchmarks/RESULTS.md and writes
figlint/rules/field_precision.json, from which the rule registry decides which rules are
stable (on by default) and which are preview. `--render DIR` writes a PNG of every
flagged figure's page region, to look at while auditing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import io
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from figlint.fingerprint import normalise_message  # noqa: E402
from figlint.rules.registry import (  # noqa: E402
    MIN_AUDITED,
    MIN_PAPERS,
    MIN_PRECISION,
    PRECISION_FILE,
    exempt_from_preview,
    measured_enough,
    proven_wrong,
)

PAPERS = HERE / "papers"
ROUTES = ("pdf", "latex")
VERDICTS = ("true", "false", "debatable")
BUILD_TIMEOUT = 600
# Stand-ins for packages a TeX installation may lack (`stub <name>.sty` in a paper's build):
# the commands the papers use, doing nothing visible to figures; any other name is empty.
STUBS = {
    "soul.sty": "\\newcommand\\hl[1]{#1}\\newcommand\\st[1]{#1}\\newcommand\\ul[1]{#1}"
                "\\newcommand\\so[1]{#1}\\newcommand\\caps[1]{#1}\\newcommand\\sethlcolor[1]{}\n",
    "bbm.sty": "\\providecommand\\mathbbm[1]{\\mathbb{#1}}\n",  # blackboard-bold digits fall back to amssymb's
}
FIGLINT_TIMEOUT = 1800


# ---------------------------------------------------------------- records and keys

def load_papers(directory: Path = PAPERS) -> list[dict]:
    out = []
    for path in sorted(directory.glob("*.json")):
        rec = json.loads(path.read_text())
        problems = check_record(rec, path.name)
        if problems:
            raise SystemExit(f"{path}: " + "; ".join(problems))
        rec["_file"] = path.name
        out.append(rec)
    return out


def save_paper(rec: dict, directory: Path = PAPERS) -> None:
    """Write a paper record back in the files' own layout (one-space indent)."""
    path = directory / rec["_file"]
    ends = path.read_text().endswith("\n") if path.exists() else True
    data = {k: v for k, v in rec.items() if k != "_file"}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + ("\n" if ends else ""))


def check_record(rec: dict, filename: str) -> list[str]:
    """What is wrong with one paper record (empty when it is well formed)."""
    problems = []
    for key in ("repo", "commit", "main", "field", "template", "build", "notes", "verdicts"):
        if key not in rec:
            problems.append(f"missing key '{key}'")
    if problems:
        return problems
    if filename != rec["repo"].replace("/", "__") + ".json":
        problems.append(f"file name should be {rec['repo'].replace('/', '__')}.json")
    if len(rec["commit"]) != 40 or any(c not in "0123456789abcdef" for c in rec["commit"]):
        problems.append("commit must be 40 lowercase hex digits")
    seen = set()
    for i, v in enumerate(rec["verdicts"]):
        if v.get("route") not in ROUTES:
            problems.append(f"verdict {i}: route must be pdf or latex")
        if v.get("verdict") not in VERDICTS:
            problems.append(f"verdict {i}: verdict must be one of {', '.join(VERDICTS)}")
        if not v.get("reason", "").strip():
            problems.append(f"verdict {i}: empty reason")
        at = v.get("at")
        if at is not None and not (isinstance(at, dict) and (
                (isinstance(at.get("page"), int) and isinstance(at.get("bbox"), list) and len(at["bbox"]) == 4)
                or isinstance(at.get("line"), int))):
            problems.append(f"verdict {i}: 'at' must be {{page, bbox}} or {{file, line}}")
        ident = (v.get("route"), v.get("figure"), v.get("code"), v.get("key"))
        if ident in seen:
            problems.append(f"verdict {i}: duplicate {ident}")
        seen.add(ident)
    return problems


def message_digest(message: str) -> str:
    """8 hex digits of the message with numbers blanked and case/spacing folded."""
    return hashlib.sha1(normalise_message(message).encode("utf-8")).hexdigest()[:8]


def legacy_key(message: str) -> str:
    """An earlier key convention some verdict files use: 12 hex digits of the SHA-1 of the
    message with its digits deleted and runs of spaces folded."""
    import re

    text = re.sub(r"\s+", " ", re.sub(r"\d", "", message)).strip()
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def finding_keys(findings: list[dict]) -> list[str]:
    """The stable key of each finding: `<digest>:<n>`, n counting identical digests
    of the same code on the same figure (two tiny-text findings that differ only in
    their numbers are told apart by order, as figlint's own fingerprints do)."""
    seen: Counter = Counter()
    out = []
    for f in findings:
        d = message_digest(f["message"])
        seen[(f["code"], f.get("figure") or "", d)] += 1
        out.append(f"{d}:{seen[(f['code'], f.get('figure') or '', d)]}")
    return out


# ---------------------------------------------------------------- building

def export_sources(src: Path, commit: str, dest: Path) -> None:
    """Copy the paper's files at `commit` into dest without touching the checkout."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if (src / ".git").exists():
        proc = subprocess.run(["git", "-C", str(src), "archive", "--format=tar", commit], capture_output=True)
        if proc.returncode == 0:
            with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
                tar.extractall(dest, filter="data")
            return
        # a snapshot without its largest files cannot be archived: use the checkout as it
        # stands, if it is at the audited commit
        head = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True)
        if head.stdout.strip() != commit:
            raise OSError(f"git archive failed and the checkout is not at {commit[:12]}")
    shutil.copytree(src, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))


def mark_checkout(work: Path) -> None:
    """An empty `.git` folder at the scratch copy's root: the author runs figlint in a checkout
    of the repository, whose root (the nearest folder with `.git`) is the project figlint
    lets a build's search path (TEXINPUTS, the .fls record) reach into. Without it a main
    file in a subfolder could not reach the files its own build read from the folder above,
    which no author's checkout would show. Nothing is read from it."""
    (work / ".git").mkdir(exist_ok=True)


def parse_build(build: str) -> tuple[list[str], list[str]]:
    """`latexmk -pdf; stub foo.sty bar.sty` -> (command, stub files). The command may start
    with VAR=value settings for the build's environment (e.g. TEXINPUTS=../: when the class
    file sits above the main file's folder)."""
    parts = [p.strip() for p in build.split(";") if p.strip()]
    cmd = shlex.split(parts[0]) if parts else ["latexmk", "-pdf"]
    stubs: list[str] = []
    for p in parts[1:]:
        words = p.split()
        if words and words[0] == "stub":
            stubs += words[1:]
    return cmd, stubs


def build_paper(rec: dict, papers_dir: Path, build_dir: Path, rebuild: bool = False) -> tuple[Path, Path] | str:
    """(main .tex, compiled PDF) in the scratch copy, or the reason it could not be built."""
    name = rec["repo"].replace("/", "__")
    src = papers_dir / name
    if not src.is_dir():
        return f"not fetched: {src} missing"
    work = build_dir / f"{name}@{rec['commit'][:12]}"
    main = work / rec["main"]
    pdf = main.with_suffix(".pdf")
    stamp = work / ".figlint-audit-built"
    if stamp.is_file() and pdf.is_file() and not rebuild:
        mark_checkout(work)
        return main, pdf
    try:
        export_sources(src, rec["commit"], work)
    except (subprocess.CalledProcessError, OSError, tarfile.TarError) as exc:
        return f"cannot export commit {rec['commit'][:12]}: {exc}"
    mark_checkout(work)
    if not main.is_file():
        return f"main file {rec['main']} not in the commit"
    cmd, stubs = parse_build(rec["build"])
    for stub in stubs:
        (main.parent / stub).write_text("% stub written by the field audit\n" + STUBS.get(stub, ""))
    if pdf.exists():
        pdf.unlink()  # a PDF committed to the repository is not the build we audit
    env = dict(os.environ)
    while cmd and "=" in cmd[0] and not cmd[0].startswith("-"):  # `TEXINPUTS=../: latexmk -pdf`
        key, _, value = cmd.pop(0).partition("=")
        env[key] = value
    full = [*cmd, "-interaction=nonstopmode", main.name]
    if cmd[0] == "latexmk":
        full.insert(1, "-f")
    try:
        subprocess.run(full, cwd=main.parent, capture_output=True, timeout=BUILD_TIMEOUT,
                       stdin=subprocess.DEVNULL, env=env)
    except (subprocess.TimeoutExpired, OSError) as exc:
        return f"build failed: {exc}"
    if not pdf.is_file():
        return f"build produced no PDF ({' '.join(full)})"
    settle_references(full, main, env)
    stamp.write_text(" ".join(full) + "\n")
    return main, pdf


_UNSETTLED = ("Rerun to get cross-references right", "Label(s) may have changed", "Rerun to get citations correct")


def settle_references(full: list[str], main: Path, env: dict) -> None:
    """`latexmk -f` stops after one pass when the source has an error, leaving '??' for every
    reference: run the engine again (at most twice) while the log asks for it, as latexmk
    would have without the error."""
    if full[0] != "latexmk":
        return
    engine = {"-xelatex": "xelatex", "-lualatex": "lualatex"}.get(next((a for a in full if a in ("-xelatex", "-lualatex")), ""),
                                                                   "pdflatex")
    log = main.with_suffix(".log")
    for _ in range(2):
        try:
            text = log.read_text(errors="replace")
        except OSError:
            return
        if not any(m in text for m in _UNSETTLED):
            return
        try:
            subprocess.run([engine, "-interaction=nonstopmode", main.name], cwd=main.parent, capture_output=True,
                           timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL, env=env)
        except (subprocess.TimeoutExpired, OSError):
            return


# ---------------------------------------------------------------- running figlint

def run_figlint(target: Path, pdf: Path | None, out: Path) -> dict | str:
    args = [sys.executable, "-m", "figlint", "check", str(target), "--format", "json",
            "--preview", "--no-cache", "-o", str(out)]
    if pdf is not None:
        args += ["--pdf", str(pdf)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=FIGLINT_TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "figlint timed out"
    if proc.returncode == 2 or not out.is_file():
        return f"figlint failed: {proc.stderr.strip()[-300:]}"
    doc = json.loads(out.read_text())
    return doc["papers"][0]


def figure_kind(paper: dict, number: str) -> str:
    """raster (only images), vector (no images) or mixed, from figlint's figure record."""
    for fig in paper.get("figures", []):
        if fig.get("number") == number:
            c = fig["content"]
            if not c["images"]:
                return "vector"
            return "raster" if c["text_spans"] == 0 and c["drawings"] <= 2 else "mixed"
    return "paper"


def current_findings(rec: dict, papers_dir: Path, build_dir: Path, rebuild: bool) -> dict | str:
    """{"pdf": {"paper": ..., "findings": [...]}, "latex": ...} or why not."""
    built = build_paper(rec, papers_dir, build_dir, rebuild)
    if isinstance(built, str):
        return built
    main, pdf = built
    out = {}
    for route in ROUTES:
        target = pdf if route == "pdf" else main
        res = run_figlint(target, None if route == "pdf" else pdf, main.parent / f".figlint-audit-{route}.json")
        if isinstance(res, str):  # one route failing must not hide the other's findings
            res = {"findings": [], "figures": [], "route_error": res}
        findings = res["findings"]
        for f, key in zip(findings, finding_keys(findings)):
            f["key"] = key
            f["_paper"] = rec["repo"]
            f["route"] = route
            f["kind"] = figure_kind(res, f.get("figure") or "") if f.get("figure") else "paper"
        out[route] = {"paper": res, "findings": findings, "pdf": str(pdf), "main": str(main)}
    return out


def dumped_findings(path: Path, rec: dict) -> dict | str:
    """The findings a previous run dumped for this paper, in current_findings' shape."""
    if not path.is_file():
        return f"no dump {path}"
    data = json.loads(path.read_text())
    out = {}
    for route in ROUTES:
        findings = data[route]
        for f in findings:
            f["_paper"] = rec["repo"]
        out[route] = {"paper": {"findings": findings}, "findings": findings}
    return out


# ---------------------------------------------------------------- scoring

def anchor(f: dict) -> dict | None:
    """Where a finding points, to tell it from another of the same code and message on the
    same figure: its page and box (rounded to 0.1 pt), or its source file's name and line.
    Coordinates only, no paper content."""
    loc = f.get("location") or {}
    if loc.get("page") and loc.get("bbox"):
        return {"page": loc["page"], "bbox": [round(float(v), 1) for v in loc["bbox"]]}
    if loc.get("line"):
        return {"file": Path(str(loc.get("file") or "")).name, "line": loc["line"]}
    return None


def _same_place(a: dict, b: dict | None) -> bool:
    """Whether two anchors point at the same thing: the same page and boxes overlapping by
    at least half the smaller (a figure's box grows or shrinks when its reading improves),
    or the same file and line."""
    if b is None:
        return False
    if "bbox" in a and "bbox" in b:
        if a["page"] != b["page"]:
            return False
        p, q = a["bbox"], b["bbox"]
        w = min(p[2], q[2]) - max(p[0], q[0])
        h = min(p[3], q[3]) - max(p[1], q[1])
        small = min((p[2] - p[0]) * (p[3] - p[1]), (q[2] - q[0]) * (q[3] - q[1]))
        if small <= 0:
            return p == q
        return w > 0 and h > 0 and w * h >= 0.5 * small
    return a.get("file") == b.get("file") and a.get("line") == b.get("line") and "line" in a


def match(rec: dict, current: dict) -> tuple[list[tuple[dict, dict]], list[dict], list[dict]]:
    """(finding, verdict) pairs, NEW findings without a verdict, verdicts no longer found.

    A verdict that records where its finding pointed (`at`, see `anchor`) pairs with the
    finding of its code and message (numbers aside) that points there, whatever its place in
    the report's order: when a finding before it goes, the keys of those after it shift, and
    pairing by key alone would give each the verdict of its neighbour. A verdict without
    `at` pairs by key, as before; one whose `at` points elsewhere pairs by key only with a
    finding on the same page (or in the same file)."""
    verdicts = {(v["route"], v["figure"] or "", v["code"], v["key"]): v for v in rec["verdicts"]}  # "" or null
    # findings that only the build here causes (a file the snapshot lacks): known, not scored
    unfaithful = {(v["route"], v["figure"] or "", v["code"], v["key"]) for v in rec.get("unfaithful", ())}
    by_message: dict[tuple, list[tuple]] = defaultdict(list)
    for ident, v in verdicts.items():
        if v.get("at"):
            by_message[ident[:3] + (ident[3].split(":")[0],)].append(ident)
    found = [(route, f) for route in ROUTES for f in current[route]["findings"]]
    hits: dict[int, tuple] = {}
    used = set()
    # first: findings that point where an anchored verdict of their message points
    for n, (route, f) in enumerate(found):
        here = anchor(f)
        if here is None:
            continue
        group = by_message.get((route, f.get("figure") or "", f["code"], f["key"].split(":")[0]), ())
        hit = next((i for i in group if i not in used and _same_place(verdicts[i]["at"], here)), None)
        if hit is not None:
            hits[n] = hit
            used.add(hit)
    pairs, new = [], []
    for n, (route, f) in enumerate(found):
        hit = hits.get(n)
        if hit is None:
            ident = (route, f.get("figure") or "", f["code"], f["key"])
            alt = (route, f.get("figure") or "", f["code"], legacy_key(f["message"]))
            here = anchor(f)
            hit = next((i for i in (ident, alt) if i in verdicts and i not in used
                        and _key_may_pair(verdicts[i].get("at"), here)), None)
            if hit is None and ident in unfaithful:
                continue
            if hit is not None:
                used.add(hit)
        if hit is not None:
            pairs.append((f, verdicts[hit]))
        else:
            new.append(f)
    gone = [v for ident, v in verdicts.items() if ident not in used]
    return pairs, new, gone


def _key_may_pair(at: dict | None, here: dict | None) -> bool:
    """A verdict pairs by key alone when it records no place, or one on the finding's page
    (or in its file): its box may have moved there, not to another page."""
    if not at or here is None:
        return True
    if ("page" in at) != ("page" in here):
        return True  # the finding gained (or lost) a place on the page: its reading changed, not its target
    if "page" in at:
        return at["page"] == here.get("page")
    return at.get("file") == here.get("file")


def record_anchors(rec: dict, pairs: list[tuple[dict, dict]]) -> bool:
    """Set `at` on each paired verdict from its finding (`--anchor`); whether any changed."""
    changed = False
    for f, v in pairs:
        here = anchor(f)
        if here is not None and v.get("at") != here:
            v["at"] = here
            changed = True
    return changed


def tally(pairs: list[tuple[dict, dict]]) -> dict[str, dict]:
    """Per-rule counts over (finding, verdict) pairs; each finding carries its paper's name."""
    per: dict[str, dict] = defaultdict(lambda: {"audited": 0, "true": 0, "debatable": 0, "false": 0,
                                                 "raster": 0, "vector": 0, "mixed": 0, "paper": 0,
                                                 "_papers": set()})
    for f, v in pairs:
        row = per[f["code"]]
        row["audited"] += 1
        row[v["verdict"]] += 1
        row[f["kind"]] += 1
        row["_papers"].add(f.get("_paper"))
    for row in per.values():
        row["precision"] = round(row["true"] / row["audited"], 3) if row["audited"] else None
        row["papers"] = len(row.pop("_papers"))
    return dict(sorted(per.items()))


def tally_verdicts(records: list[dict]) -> dict[str, dict]:
    """Per-rule counts straight from the verdict files (no rebuild): what --write records
    when papers cannot be rebuilt here. Same shape as `tally` without the figure kinds."""
    per: dict[str, dict] = defaultdict(lambda: {"audited": 0, "true": 0, "debatable": 0, "false": 0,
                                                 "_papers": set()})
    for rec in records:
        for v in rec["verdicts"]:
            row = per[v["code"]]
            row["audited"] += 1
            row[v["verdict"]] += 1
            row["_papers"].add(rec["repo"])
    for row in per.values():
        row["precision"] = round(row["true"] / row["audited"], 3)
        row["papers"] = len(row.pop("_papers"))
    return dict(sorted(per.items()))


def status(code: str, row: dict | None) -> str:
    if exempt_from_preview(code):
        return "preview (exempt rule measured below the bar)" if proven_wrong(row) else "stable (exempt)"
    if not measured_enough(row):
        return "preview (unproven)"
    return "stable" if row["precision"] >= MIN_PRECISION else "preview"


def table(per: dict[str, dict], records: list[dict]) -> str:
    fields = sorted({r["field"] for r in records})
    templates = sorted({r["template"] for r in records})
    audited = sum(r["audited"] for r in per.values())
    lines = [
        f"{len(records)} papers ({len(fields)} fields: {', '.join(fields)}; {len(templates)} templates: "
        f"{', '.join(templates)}), {audited} audited findings. Precision = true / audited "
        "(debatable counts as not true). A rule is stable (on by default) with precision "
        f">= {MIN_PRECISION:.2f} over >= {MIN_AUDITED} audited findings from >= {MIN_PAPERS} papers; "
        "FL0xx (tool/input) and FL7xx "
        "(configured judge thresholds) are exempt. Each route's finding counts on its own (a defect "
        "reported on the PDF and on the sources is two audited findings). Produced by "
        "`python benchmarks/field_audit/run.py --papers-dir DIR --write` (or `--from-dump DIR` on the "
        "findings an audit run dumped); the causes of the false findings, per rule, are listed in "
        "benchmarks/field_audit/README.md.",
        "",
        "| rule | audited | papers | true | debatable | false | precision | raster / mixed / vector / paper | status |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for code, r in per.items():
        kinds = " / ".join(str(r.get(k, "-")) for k in ("raster", "mixed", "vector", "paper"))
        p = "-" if r["precision"] is None else f"{r['precision']:.3f}"
        lines.append(f"| {code} | {r['audited']} | {r['papers']} | {r['true']} | {r['debatable']} | {r['false']} | {p} | "
                     f"{kinds} | {status(code, r)} |")
    stable = [r for c, r in per.items() if status(c, r) == "stable"]
    if stable:
        t = sum(r["true"] for r in stable)
        n = sum(r["audited"] for r in stable)
        lines += ["", f"Stable (non-exempt) rules together: {t}/{n} = {t / n:.2f}."]
    return "\n".join(lines)


def write_outputs(per: dict[str, dict], records: list[dict]) -> None:
    from benchmarks.results_md import write_section

    write_section("Field audit", table(per, records))
    data = {
        "about": "Field-audit precision per rule, written by benchmarks/field_audit/run.py --write; "
                 "the rule registry reads it to decide stable/preview.",
        "min_precision": MIN_PRECISION,
        "min_audited": MIN_AUDITED,
        "min_papers": MIN_PAPERS,
        "papers": len(records),
        "rules": {c: {k: r[k] for k in ("audited", "papers", "true", "debatable", "false", "precision")}
                  for c, r in per.items()},
    }
    PRECISION_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


# ---------------------------------------------------------------- rendering for the auditor

def render_regions(current: dict, name: str, out_dir: Path) -> None:
    """One PNG per flagged figure (its page region), for the auditor to look at."""
    import pymupdf as fitz

    out_dir.mkdir(parents=True, exist_ok=True)
    paper = current["pdf"]["paper"]
    if not paper.get("figures"):
        return
    doc = fitz.open(current["pdf"]["pdf"])
    flagged = {f.get("figure") for r in ROUTES for f in current[r]["findings"] if f.get("figure")}
    for fig in paper.get("figures", []):
        if fig.get("number") not in flagged or not fig.get("page") or not fig.get("bbox"):
            continue
        page = doc[fig["page"] - 1]
        x0, y0, x1, y1 = fig["bbox"]
        cap = (fig.get("caption") or {}).get("location", {}).get("bbox")
        if cap:
            y1 = max(y1, cap[3])
        clip = fitz.Rect(x0 - 6, y0 - 6, x1 + 6, y1 + 6) & page.rect
        pix = page.get_pixmap(dpi=150, clip=clip)
        pix.save(out_dir / f"{name}_fig{fig['number']}.png")


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers-dir", type=Path, help="folder holding one checkout per <owner>__<name>")
    ap.add_argument("--build-dir", type=Path, default=Path("/tmp/figlint_field_audit"),
                    help="scratch folder for the builds (default /tmp/figlint_field_audit)")
    ap.add_argument("--only", help="comma-separated <owner>__<name> to run")
    ap.add_argument("--rebuild", action="store_true", help="compile again even when a build is cached")
    ap.add_argument("--render", type=Path, metavar="DIR", help="write PNGs of flagged figures to DIR")
    ap.add_argument("--dump", type=Path, metavar="DIR",
                    help="write each paper's current findings (with keys) to DIR/<owner>__<name>.json")
    ap.add_argument("--write", action="store_true",
                    help="write the table into benchmarks/RESULTS.md and figlint/rules/field_precision.json")
    ap.add_argument("--from-dump", type=Path, metavar="DIR",
                    help="score the findings a previous run wrote with --dump DIR instead of rebuilding "
                         "and rerunning (same figlint code only)")
    ap.add_argument("--anchor", action="store_true",
                    help="record in each paired verdict where its finding points (page and box, or file "
                         "and line), so later runs pair it by place, not by report order")
    ap.add_argument("--from-verdicts", action="store_true",
                    help="tally the verdict files as recorded, without rebuilding (for --write)")
    args = ap.parse_args(argv)
    records = load_papers()
    if args.only:
        wanted = set(args.only.split(","))
        records = [r for r in records if r["repo"].replace("/", "__") in wanted]
    if args.from_verdicts:
        records = [r for r in records if not ("not compiled" in r["notes"].lower() and not r["verdicts"])]
        per = tally_verdicts(records)
        print(table(per, records))
        if args.write:
            write_outputs(per, records)
        return 0
    if not args.papers_dir and not args.from_dump:
        ap.error("--papers-dir is required (or --from-dump / --from-verdicts)")
    all_pairs, all_new, all_gone, skipped = [], [], [], []
    for rec in records:
        name = rec["repo"].replace("/", "__")
        if not rec["verdicts"] and "not compiled" in rec["notes"].lower():
            skipped.append((name, "recorded as not compilable"))
            continue
        if args.from_dump:
            cur = dumped_findings(args.from_dump / f"{name}.json", rec)
        else:
            cur = current_findings(rec, args.papers_dir, args.build_dir, args.rebuild)
        if isinstance(cur, str):
            skipped.append((name, cur))
            continue
        if args.dump and not args.from_dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            (args.dump / f"{name}.json").write_text(json.dumps(
                {r: cur[r]["findings"] for r in ROUTES}, indent=1, ensure_ascii=False))
        if args.render and not args.from_dump:
            render_regions(cur, name, args.render)
        for route in ROUTES:
            if cur[route]["paper"].get("route_error"):
                skipped.append((f"{name} ({route} route)", cur[route]["paper"]["route_error"]))
        pairs, new, gone = match(rec, cur)
        if args.anchor and record_anchors(rec, pairs):
            save_paper(rec)
        all_pairs += pairs
        all_new += [(name, f) for f in new]
        all_gone += [(name, v) for v in gone]
        print(f"{name}: {len(pairs)} audited, {len(new)} new, {len(gone)} verdicts not found again",
              file=sys.stderr)
    per = tally(all_pairs)
    # a paper whose one route failed still counts: its other route was scored
    scored = [r for r in records if r["repo"].replace("/", "__") not in {s[0] for s in skipped}]
    print(table(per, scored))
    if skipped:
        print("\nSkipped:")
        for name, why in skipped:
            print(f"  {name}: {why}")
    if all_new:
        print(f"\nNEW findings to audit ({len(all_new)}):")
        for name, f in all_new:
            print(f"  {name}  {f['route']:<5} fig {f.get('figure') or '-':<4} {f['code']} "
                  f"key={f['key']}  {f['message'][:160]}")
    if all_gone:
        print(f"\nVerdicts whose finding is no longer reported ({len(all_gone)}):")
        for name, v in all_gone:
            print(f"  {name}  {v['route']:<5} fig {v['figure'] or '-':<4} {v['code']} ({v['verdict']})")
    if args.write:
        write_outputs(per, scored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
