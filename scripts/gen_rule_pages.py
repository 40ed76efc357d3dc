"""Write the rule catalogue under rules/ from the rule docstrings.

Run `python scripts/gen_rule_pages.py` after changing a rule; tests fail when
the pages are stale (`--check` exits 1 and names the stale pages).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figlint.cli import rule_page  # noqa: E402
from figlint.rules.registry import all_rules  # noqa: E402


def pages() -> dict[str, str]:
    rules = all_rules()
    out = {f"{r.code}.md": rule_page(r) for r in rules}
    index = ["# figlint rules", "", "Generated from the rule docstrings by `scripts/gen_rule_pages.py`.", "",
             "Stable rules are on by default; preview rules run with `--preview` (`preview = true`) or when",
             "selected by name, and their field-audit precision is on their page "
             "(benchmarks/field_audit).", "",
             "| code | name | family | severity | default | status | summary |", "|---|---|---|---|---|---|---|"]
    for r in rules:
        index.append(f"| [{r.code}]({r.code}.md) | {r.name} | {r.family} | {r.severity} | "
                     f"{'on' if r.on_by_default else 'off'} | {r.status} | {r.summary} |")
    out["README.md"] = "\n".join(index) + "\n"
    return out


def main(argv: list[str]) -> int:
    target = ROOT / "rules"
    wanted = pages()
    if "--check" in argv:
        stale = [n for n, t in wanted.items() if not (target / n).is_file() or (target / n).read_text() != t]
        extra = [p.name for p in target.glob("*.md") if p.name not in wanted]
        if stale or extra:
            print("stale rule pages:", ", ".join(stale + extra))
            return 1
        return 0
    target.mkdir(exist_ok=True)
    for p in target.glob("*.md"):
        if p.name not in wanted:
            p.unlink()
    for name, text in wanted.items():
        (target / name).write_text(text)
    print(f"wrote {len(wanted)} pages to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
