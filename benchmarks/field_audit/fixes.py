"""Fix ledger (issue 13): was each fix of a false-finding cause checked on papers other than the one that showed it?

Reads causes.json (one entry per general cause: rules, fix commits, the papers that showed it,
the tests of the kind of figure that misled the rule, and the current false verdicts on other
papers whose reason is the same cause) and the verdict files in papers/. For each cause it counts

- the verdicts its commits retired (`retired` entries whose `retired_by` names one of the commit
  hashes, prefix match, or contains one of the cause's `retired_as` texts with its reason matching;
  an entry with a `cause` counts for that cause only: one commit may fix two),
  on the papers that showed the cause and on other papers (false / debatable / true, papers);
- the rule's current precision on the other papers (debatable counts as not true);
- the other papers audited for the rule after the fix (first committed after the fix's last commit;
  without a git repository, every other paper);
- still_seen: current false verdicts of the same cause on other papers;
- exercised: other papers audited after the fix whose record says, in `exercises`, that the auditor
  found the construct the fix is about in them (a JPEG photograph, a colour bar's ramp, a macro-built
  include path...) and judged every finding there; such a paper with a false verdict of one of the
  cause's rules does not count (listed apart, to look at). A paper with the construct and no
  finding of the rule is the evidence wanted: the fix held where it had to.

Verdict: "checked elsewhere" when the fix retired false findings on another paper, or the rule has
audited findings on at least 3 other papers audited after it, or at least 3 other papers audited
after it exercise the construct, and still_seen is empty; otherwise what is missing. Also lists every fix that retired TRUE findings (real defects a fix lost, or
findings that moved and were judged again). `--write` replaces the "Fix ledger (issue 13)" section
of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HEADING = "Fix ledger (issue 13)"
MIN_OTHER_PAPERS = 3
VERDICTS = ("false", "debatable", "true")
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")


# ---------------------------------------------------------------- inputs

REQUIRED = {"id": str, "rules": list, "cause": str, "commits": list, "shown_on": list, "tests": list,
            "still_seen": list}


def load_causes(path: Path) -> list[dict]:
    """The ledger's causes; ValueError naming the first malformed entry."""
    data = json.loads(path.read_text())
    causes = data.get("causes") if isinstance(data, dict) else data
    if not isinstance(causes, list):
        raise ValueError("no list of causes")
    for i, cause in enumerate(causes):
        problems = check_cause(cause)
        if problems:
            raise ValueError(f"cause {i} ({cause.get('id', '?') if isinstance(cause, dict) else '?'}): "
                             + "; ".join(problems))
    return causes


def check_cause(cause) -> list[str]:
    """What is wrong with one ledger entry's shape (empty when it is well formed)."""
    if not isinstance(cause, dict):
        return ["not an object"]
    problems = [f"'{k}' must be a {t.__name__}" for k, t in REQUIRED.items() if not isinstance(cause.get(k), t)]
    for alt in cause.get("retired_as", []):
        if not (isinstance(alt, dict) and isinstance(alt.get("text"), str) and alt["text"]):
            problems.append("retired_as entries need a non-empty 'text'")
        else:
            try:
                re.compile(alt.get("reason") or "")
            except re.error as exc:
                problems.append(f"retired_as reason is not a regular expression: {exc}")
    return problems


def load_records(directory: Path) -> tuple[list[dict], list[str]]:
    """Paper records, and the files that could not be read (named, never a traceback)."""
    out, bad = [], []
    for path in sorted(directory.glob("*.json")):
        try:
            rec = json.loads(path.read_text())
            if not isinstance(rec, dict) or "repo" not in rec:
                raise ValueError("no 'repo'")
        except (OSError, ValueError) as exc:
            bad.append(f"{path.name}: {exc}")
            continue
        rec.setdefault("verdicts", [])
        rec.setdefault("retired", [])
        rec.setdefault("exercises", [])
        rec["_file"] = path.name
        out.append(rec)
    return out, bad


def verdict_key(repo: str, v: dict) -> str:
    """How causes.json names one verdict: repo|route|figure|code|key."""
    return f"{repo}|{v.get('route')}|{v.get('figure')}|{v.get('code')}|{v.get('key')}"


# ---------------------------------------------------------------- matching

def names_commit(retired_by: str, commits: list[str]) -> bool:
    """Does a retired_by text name one of the commits (hex words, either a prefix of the other)?"""
    words = HEX.findall(retired_by or "")
    return any(w.startswith(c) or c.startswith(w) for w in words for c in commits)


def retired_by_cause(cause: dict, v: dict) -> bool:
    if v.get("code") not in cause["rules"]:
        return False
    if v.get("cause"):  # a commit that fixed two causes: the entry names the one that removed it
        return v["cause"] == cause["id"]
    text = v.get("retired_by", "") or ""
    if cause["commits"] and names_commit(text, cause["commits"]):
        return True
    for alt in cause.get("retired_as", []):
        if alt["text"] in text and re.search(alt.get("reason") or "", v.get("reason", ""), re.I):
            return True
    return False


# ---------------------------------------------------------------- git (optional)

def git(args: list[str], stdin: str | None = None, where: Path = ROOT) -> str | None:
    """git's output in `where`, or None when it is no git checkout (a tarball) or git fails."""
    if not any((d / ".git").exists() for d in (where, *where.parents)):
        return None
    try:
        proc = subprocess.run(["git", "-C", str(where), *args], input=stdin, capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def commit_info(commits: list[str]) -> dict[str, dict] | None:
    """hash -> {exists, time, subject}; None without a git repository (a tarball)."""
    if not commits:
        return {}
    checked = git(["cat-file", "--batch-check"], "".join(f"{c}^{{commit}}\n" for c in commits))
    if checked is None:
        return None
    info = {}
    for c, line in zip(commits, checked.splitlines()):
        info[c] = {"exists": not line.endswith("missing") and " commit " in line, "time": None, "subject": ""}
    found = [c for c in commits if info[c]["exists"]]
    if found:
        out = git(["log", "--no-walk=unsorted", "--format=%ct%x09%s", *found]) or ""
        for c, line in zip(found, out.splitlines()):
            t, _, subject = line.partition("\t")
            info[c].update(time=int(t), subject=subject)
    return info


def first_added(papers_dir: Path) -> dict[str, int] | None:
    """Paper file name -> time its record was first committed (in the repository that holds the
    folder, which may be another worktree); None without git."""
    where = papers_dir.resolve()
    out = git(["log", "--diff-filter=A", "--format=@%ct", "--name-only", "--relative", "--", "."], where=where)
    if out is None:
        return None
    added: dict[str, int] = {}
    when = 0
    for line in out.splitlines():
        if line.startswith("@"):
            when = int(line[1:])
        elif line.strip():
            added[Path(line).name] = min(when, added.get(Path(line).name, when))
    return added


# ---------------------------------------------------------------- the ledger

def ledger_row(cause: dict, records: list[dict], commits: dict | None, added: dict | None) -> dict:
    shown = set(cause["shown_on"])
    rules = set(cause["rules"])
    row = {"id": cause["id"], "rules": cause["rules"], "commits": cause["commits"], "shown_on": cause["shown_on"],
           "retired_shown": Counter(), "retired_other": Counter(), "retired_other_papers": set(),
           "retired_other_false_papers": set(), "other": Counter(), "other_papers": set(),
           "after_papers": set(), "exercised": set(), "exercised_false": set(), "still_seen": 0, "still_seen_papers": set(), "still_seen_stale": []}
    current = {}
    for rec in records:
        repo = rec["repo"]
        mine = repo in shown
        for v in rec["retired"]:
            if not retired_by_cause(cause, v):
                continue
            if mine:
                row["retired_shown"][v.get("verdict")] += 1
            else:
                row["retired_other"][v.get("verdict")] += 1
                row["retired_other_papers"].add(repo)
                if v.get("verdict") == "false":
                    row["retired_other_false_papers"].add(repo)
        for v in rec["verdicts"]:
            current[verdict_key(repo, v)] = v
            if mine or v.get("code") not in rules:
                continue
            row["other"][v.get("verdict")] += 1
            row["other_papers"].add(repo)
            if _after(rec, cause, commits, added):
                row["after_papers"].add(repo)
        if not mine and _after(rec, cause, commits, added) and any(
                isinstance(e, dict) and e.get("cause") == cause["id"] for e in rec["exercises"]):
            falses = any(v.get("code") in rules and v.get("verdict") == "false" for v in rec["verdicts"])
            row["exercised_false" if falses else "exercised"].add(repo)
    for key in cause.get("still_seen", []):
        v = current.get(key)
        if v is None or v.get("verdict") != "false" or key.split("|", 1)[0] in shown:
            row["still_seen_stale"].append(key)
            continue
        row["still_seen"] += 1
        row["still_seen_papers"].add(key.split("|", 1)[0])
    row["commit_info"] = {c: (commits or {}).get(c) for c in cause["commits"]}
    row["verdict"] = judge(row, commits is not None)
    if cause.get("scope") == "charts" and not row["retired_other_false_papers"]:
        # a real-chart cause the field papers may not exercise at all: say where it was measured
        row["verdict"] = "real-chart cause, measured on the chart set; field: " + row["verdict"]
    return row


def _after(rec: dict, cause: dict, commits: dict | None, added: dict | None) -> bool:
    """Was this paper's record first committed after the cause's last fix commit?
    Without git every other paper counts (the tarball cannot tell)."""
    if commits is None or added is None:
        return True
    times = [commits[c]["time"] for c in cause["commits"] if commits.get(c) and commits[c]["time"]]
    when = added.get(rec["_file"])
    if not times or when is None:
        return False
    return when > max(times)


def judge(row: dict, have_git: bool) -> str:
    if not row["commits"]:
        return "no fix commit"
    if have_git and any(i is None or not i["exists"] for i in row["commit_info"].values()):
        return "commit not found"
    seen = row["still_seen"]
    if row["retired_other_false_papers"]:
        return "checked elsewhere" + (f" (still seen: {seen})" if seen else "")
    after = len(row["after_papers"])
    exercised = len(row["exercised"])
    if (after >= MIN_OTHER_PAPERS or exercised >= MIN_OTHER_PAPERS) and not seen:
        return "checked elsewhere"
    missing = ["retired no false finding on another paper"]
    if after < MIN_OTHER_PAPERS and exercised < MIN_OTHER_PAPERS:
        missing.append(f"audited on {after} other papers after it, {exercised} exercising the construct "
                       f"({MIN_OTHER_PAPERS} needed)")
    if row["exercised_false"]:
        missing.append(f"false findings of the rule on {len(row['exercised_false'])} papers that exercise it")
    if seen:
        missing.append(f"still seen: {seen} on {len(row['still_seen_papers'])} papers")
    return "not checked: " + "; ".join(missing)


def true_retired(causes: list[dict], records: list[dict]) -> list[tuple[str, str, str, int]]:
    """(what retired it, repo, code, count) of TRUE verdicts retired by a ledger commit (any rule), and
    of a cause's rules retired at a rerun its `retired_as` names (whatever the reason says: a rerun
    tag does not tell which change removed a true finding, so all are shown)."""
    commits = sorted({c for cause in causes for c in cause["commits"]})
    tags = {(alt["text"], code) for cause in causes for alt in cause.get("retired_as", []) for code in cause["rules"]}
    hits: Counter = Counter()
    for rec in records:
        for v in rec["retired"]:
            if v.get("verdict") != "true":
                continue
            text = v.get("retired_by", "") or ""
            named = [c for c in commits if names_commit(text, [c])]
            for c in named:
                hits[(c, rec["repo"], v.get("code"))] += 1
            if not named:
                for tag in sorted({t for t, code in tags if code == v.get("code") and t in text}):
                    hits[(f"'{tag}'", rec["repo"], v.get("code"))] += 1
    return [(c, r, code, n) for (c, r, code), n in sorted(hits.items())]


# ---------------------------------------------------------------- output

def _fdt(c: Counter) -> str:
    return "/".join(str(c.get(k, 0)) for k in VERDICTS)


def _precision(c: Counter) -> str:
    n = sum(c.values())
    return f"{c.get('true', 0) / n:.2f} ({c.get('true', 0)}/{n})" if n else "-"


def _shown(shown: list[str]) -> str:
    return ", ".join(s.split("/")[0] if "/" in s else s for s in shown)


def table(rows: list[dict]) -> str:
    head = ("| cause | rules | commits | shown on | retired on shown (f/d/t) | retired elsewhere (f/d/t, papers) "
            "| precision on other papers | other papers after | exercised after | still seen | verdict |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        lines.append(
            f"| {r['id']} | {' '.join(r['rules'])} | {' '.join(r['commits']) or '-'} | {_shown(r['shown_on'])} "
            f"| {_fdt(r['retired_shown'])} | {_fdt(r['retired_other'])}, {len(r['retired_other_papers'])} "
            f"| {_precision(r['other'])} | {len(r['after_papers'])} | {len(r['exercised'])}"
            + (f" (+{len(r['exercised_false'])} with false findings)" if r['exercised_false'] else "")
            + f" | {r['still_seen']} "
            f"({len(r['still_seen_papers'])} papers) | {r['verdict']} |")
    return "\n".join(lines)


def report(rows: list[dict], trues: list[tuple], bad: list[str], have_git: bool, n_papers: int) -> str:
    checked = sum(r["verdict"].startswith("checked elsewhere") for r in rows)
    parts = [
        f"Generated by `benchmarks/field_audit/fixes.py` from benchmarks/field_audit/causes.json and the "
        f"{n_papers} verdict files in papers/. {checked} of {len(rows)} causes are checked elsewhere (real-chart "
        "causes count only when their fix retired false findings on a field paper): the fix "
        "retired false findings on a paper other than those that showed the cause, or the rule has audited "
        f"findings on at least {MIN_OTHER_PAPERS} papers first audited after the fix, or at least "
        f"{MIN_OTHER_PAPERS} such papers exercise the construct the fix is about (the auditor found it there and "
        "judged every finding; 'exercised after'; one with a false finding of the rule does not count), and "
        "no current false "
        "verdict of the same cause on another paper (still seen). Retired counts are false/debatable/true; "
        "'shown on' abbreviates repositories to their owner; precision is over the rule's current verdicts "
        "on the other papers (debatable counts as not true).",
        "",
        table(rows),
    ]
    if not have_git:
        parts += ["", "No git repository here: commits not checked, and every other paper counts as audited "
                      "after the fix."]
    parts += ["", "Fix commits:", ""]
    for r in rows:
        for c, info in r["commit_info"].items():
            if info is None:
                parts.append(f"- {c} ({r['id']}): {'not checked (no git)' if not have_git else 'NOT FOUND'}")
            else:
                parts.append(f"- {c} ({r['id']}): {info['subject'][:150]}")
    parts += ["", "TRUE verdicts retired by a ledger commit (a real defect no longer reported, or a finding that "
                  "moved and was judged again under its new key):", ""]
    parts += [f"- {c}: {repo} {code} x{n}" for c, repo, code, n in trues] or ["- none"]
    stale = [(r["id"], k) for r in rows for k in r["still_seen_stale"]]
    if stale or bad:
        parts += ["", "Problems in the inputs:", ""]
        parts += [f"- {cid}: still_seen key is not a current false verdict on another paper: {k}" for cid, k in stale]
        parts += [f"- unreadable verdict file {b}" for b in bad]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--causes", type=Path, default=HERE / "causes.json", help="the ledger (default: causes.json)")
    ap.add_argument("--papers", type=Path, default=HERE / "papers", help="folder of verdict files")
    ap.add_argument("--write", action="store_true", help=f"replace the '{HEADING}' section of benchmarks/RESULTS.md")
    args = ap.parse_args(argv)
    try:
        causes = load_causes(args.causes)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"fixes.py: cannot read {args.causes}: {exc}", file=sys.stderr)
        return 2
    records, bad = load_records(args.papers)
    commits = commit_info(sorted({c for cause in causes for c in cause.get("commits", [])}))
    added = first_added(args.papers) if commits is not None else None
    rows = [ledger_row(c, records, commits, added) for c in causes]
    text = report(rows, true_retired(causes, records), bad, commits is not None, len(records))
    print(text)
    if args.write:
        sys.path.insert(0, str(HERE.parent))
        from results_md import write_section

        write_section(HEADING, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
