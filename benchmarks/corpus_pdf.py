"""Accuracy of the PDF route on the shared paper corpus: figures, captions, citing sites.

For every paper under ../shared/corpus/papers (next to the repository) this runs
`read_pdf` on paper.pdf and compares with truth.json:

* figures: a truth figure is found when a figure with the same number sits on
  the same physical page (recall); a found figure is right when truth has it
  (precision). Uncaptioned regions are left out of precision (truth cannot
  list them).
* captions: difflib ratio between the normalised printed caption and the truth
  caption (caption_full when present, else caption); normalising = NFKC,
  lower case, every run of non-alphanumerics one space.
* citing sites: truth gives only file/line/column of each \\ref-style command
  or literal "Figure N". The matcher reads that source line, removes LaTeX
  (comments, math, \\cite-like and \\ref-like commands with their arguments,
  other command names) and keeps up to four words before the command and three
  after it (reaching into neighbouring lines when the command opens or ends a
  line). A truth site is hit when a site bound to the right figure has a
  sentence (with the eight words before it in its paragraph, since a mention
  often opens a sentence) containing at least half of those context words
  (at least two),
  each predicted site serving one truth site at most (greedy, best overlap
  first). Words are compared as sets, so a citation printed between them in
  the PDF does not break the match. Sites the PDF does not print (inside an
  empty macro) are simply missed.

Baselines, for comparison: a plain "Figure N:" caption regex over page text
(figures found) and a plain "Figure N" mention regex whose hits, taken with
the surrounding 200 characters as sentence, go through the same site matcher.

Run: python benchmarks/corpus_pdf.py [--write] [--misses]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from figlint.ingest.pdf import read_pdf  # noqa: E402
from figlint.mentions import normalize_number  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "papers"
SECTION = "## PDF route: figures, captions, citing sites"


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def caption_similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, norm(a), norm(b), autojunk=False).ratio()


# ------------------------------------------------------------- LaTeX context

_DROP_ARG = re.compile(
    r"\\(?:[A-Za-z]*cite[A-Za-z]*|[A-Za-z]*ref|autoref|Autoref|cref|Cref|labelcref|crefrange|Crefrange|"
    r"label|eqref|pageref|footnote|url|href|cut|todo|hyperref)\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})*"
)


def strip_latex(text: str) -> str:
    text = re.sub(r"(?<!\\)%.*", " ", text)
    text = re.sub(r"\$[^$]*\$", " ", text)
    text = _DROP_ARG.sub(" ", text)
    text = re.sub(r"\\[A-Za-z]+\*?", " ", text)
    text = re.sub(r"[{}~\\]", " ", text)
    return text


def _words(text: str) -> list[str]:
    return [w for w in norm(text).split() if len(w) > 1 or w.isdigit()]


# Lines that end or open an environment or a heading are not part of the running sentence.
_STRUCT = re.compile(r"\\(?:begin|end|caption|label|section|subsection|paragraph|item|includegraphics)\b")


def context_words(lines: list[str], line: int, column: int, before: int = 4, after: int = 3) -> list[str]:
    """Words around a command at (line, column), 1-based, from the LaTeX source."""
    i = line - 1
    head = lines[i][: column - 1]
    k = i
    while len(_words(strip_latex(head))) < before and k > 0 and lines[k - 1].strip() and not _STRUCT.search(lines[k - 1]):
        k -= 1
        head = lines[k] + " " + head
    rest = lines[i][column - 1:]
    cmd = _DROP_ARG.match(rest) or re.match(r"\S+", rest)
    tail = rest[cmd.end():] if cmd else rest
    k = i
    while len(_words(strip_latex(tail))) < after and k + 1 < len(lines) and lines[k + 1].strip() and not _STRUCT.search(lines[k + 1]):
        k += 1
        tail = tail + " " + lines[k]
    # Words that LaTeX prints as part of the mention ("Figure", "Fig") say nothing about the place.
    stop = {"figure", "figures", "fig", "figs"}
    bw = [w for w in _words(strip_latex(head)) if w not in stop][-before:]
    aw = [w for w in _words(strip_latex(tail)) if w not in stop][:after]
    return bw + aw


# ------------------------------------------------------------- evaluation


@dataclass
class PaperResult:
    name: str
    truth_figures: int = 0
    found: int = 0
    predicted: int = 0
    correct: int = 0
    uncaptioned: int = 0
    captions_ok: int = 0
    caption_scores: list[float] = field(default_factory=list)
    truth_sites: int = 0
    sites_hit: int = 0
    predicted_sites: int = 0
    seconds: float = 0.0
    baseline_caption_found: int = 0
    baseline_sites_hit: int = 0
    misses: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _match_sites(truth: list[tuple[str, list[str], str]], predicted: dict[str, list[str]]) -> tuple[int, list[str]]:
    """Greedy one-to-one matching; truth items are (figure key, context words, description)."""
    pairs = []
    for ti, (key, words, _d) in enumerate(truth):
        if not words:
            continue
        need = max(2, (len(words) + 1) // 2) if len(words) >= 2 else 1
        for pi, window in enumerate(predicted.get(key, [])):
            have = set(_words(window))
            score = sum(1 for w in words if w in have)
            if score >= need:
                pairs.append((score, ti, pi))
    pairs.sort(reverse=True)
    used_t, used_p = set(), set()
    for score, ti, pi in pairs:
        key = truth[ti][0]
        if ti in used_t or (key, pi) in used_p:
            continue
        used_t.add(ti)
        used_p.add((key, pi))
    misses = [f"Figure {truth[i][0]}: {truth[i][2]} words={truth[i][1]}" for i in range(len(truth)) if i not in used_t]
    return len(used_t), misses


def site_window(site) -> str:
    """The site's sentence plus the few words before it in its paragraph (a mention often opens a sentence)."""
    at = site.paragraph.find(site.sentence)
    before = site.paragraph[:at].split()[-8:] if at > 0 else []
    return " ".join(before) + " " + site.sentence


def evaluate(paper_dir: Path) -> PaperResult:
    truth = json.loads((paper_dir / "truth.json").read_text())
    res = PaperResult(paper_dir.name)
    # CPU time of this process: the wall clock also counts whatever else the machine runs.
    t0 = time.process_time()
    paper = read_pdf(str(paper_dir / truth.get("pdf", "paper.pdf")))
    res.seconds = time.process_time() - t0
    res.problems = [f"{p.code} {p.message}" for p in paper.problems]

    got = {(normalize_number(f.number), f.page): f for f in paper.figures if f.number}
    tkeys = {(normalize_number(f["number"]), f["pdf_page"]) for f in truth["figures"]}
    res.truth_figures = len(truth["figures"])
    res.predicted = len(got)
    res.uncaptioned = sum(1 for f in paper.figures if not f.number)
    res.correct = sum(1 for k in got if k in tkeys)
    for tf in truth["figures"]:
        fig = got.get((normalize_number(tf["number"]), tf["pdf_page"]))
        if fig is None:
            res.misses.append(f"Figure {tf['number']} (page {tf['pdf_page']}) not found")
            continue
        res.found += 1
        ref = tf.get("caption_full") or tf["caption"]
        mine = fig.caption.text if fig.caption else ""
        # a figure printed without a main caption (sub-captions only): none is right
        score = 1.0 if not ref and not mine else caption_similarity(mine, ref)
        res.caption_scores.append(score)
        if score >= 0.95:
            res.captions_ok += 1
        else:
            res.misses.append(f"Figure {tf['number']} caption {score:.2f}: {fig.caption.text[:80] if fig.caption else ''!r}")

    source = paper_dir / "source"
    cache: dict[str, list[str]] = {}
    tsites = []
    for tf in truth["figures"]:
        key = normalize_number(tf["number"])
        for s in tf["ref_sites"] + tf["literal_sites"]:
            if s["file"] not in cache:
                cache[s["file"]] = (source / s["file"]).read_text(encoding="utf-8", errors="replace").split("\n")
            words = context_words(cache[s["file"]], s["line"], s["column"])
            tsites.append((key, words, f"{s['file']}:{s['line']}:{s['column']} {s.get('macro', 'literal')}"))
    res.truth_sites = len(tsites)
    predicted = {normalize_number(f.number): [site_window(s) for s in f.sites] for f in paper.figures if f.number}
    res.predicted_sites = sum(len(v) for v in predicted.values())
    res.sites_hit, misses = _match_sites(tsites, predicted)
    res.misses += [f"site missed: {m}" for m in misses]

    res.baseline_caption_found, base_sites = _baselines(paper_dir / "paper.pdf", truth)
    res.baseline_sites_hit, _ = _match_sites(tsites, base_sites)
    return res


def _baselines(pdf: Path, truth: dict) -> tuple[int, dict[str, list[str]]]:
    import pymupdf

    found, sites = set(), {}
    with pymupdf.open(str(pdf)) as doc:
        for page in doc:
            text = page.get_text()
            for m in re.finditer(r"(?:Figure|Fig\.)\s*([A-Z]?\d+)\s*:", text):
                found.add((normalize_number(m.group(1)), page.number + 1))
            flat = " ".join(text.split())
            for m in re.finditer(r"(?:Figure|Fig\.)\s*([A-Z]?\d+)", flat):
                sites.setdefault(normalize_number(m.group(1)), []).append(flat[max(0, m.start() - 100): m.end() + 100])
    hits = sum(1 for f in truth["figures"] if (normalize_number(f["number"]), f["pdf_page"]) in found)
    return hits, sites


def papers() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if (p / "truth.json").exists()) if CORPUS.exists() else []


def table(results: list[PaperResult]) -> str:
    head = ("| paper | figures | recall | precision | uncaptioned | captions ≥0.95 | sites | sites bound | "
            "read_pdf CPU s | baseline captions | baseline sites |")
    rows = [head, "|" + "---|" * 11]

    def pct(a: int, b: int) -> str:
        return f"{a / b:.0%}" if b else "–"

    tot = PaperResult("total")
    for r in results + [tot]:
        if r is tot:
            for x in results:
                for f in ("truth_figures", "found", "predicted", "correct", "uncaptioned", "captions_ok", "truth_sites",
                          "sites_hit", "seconds", "baseline_caption_found", "baseline_sites_hit"):
                    setattr(tot, f, getattr(tot, f) + getattr(x, f))
        name = f"**{r.name}**" if r is tot else r.name
        rows.append(
            f"| {name} | {r.truth_figures} | {pct(r.found, r.truth_figures)} | {pct(r.correct, r.predicted)} | {r.uncaptioned} | "
            f"{pct(r.captions_ok, r.found)} | {r.truth_sites} | {r.sites_hit} ({pct(r.sites_hit, r.truth_sites)}) | "
            f"{r.seconds:.2f} | {pct(r.baseline_caption_found, r.truth_figures)} | "
            f"{pct(r.baseline_sites_hit, r.truth_sites)} |"
        )
    return "\n".join(rows)


def write_results(text: str) -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from results_md import write_section

    write_section(SECTION[3:], text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="replace the PDF-route section of benchmarks/RESULTS.md")
    ap.add_argument("--misses", action="store_true", help="list every miss per paper")
    args = ap.parse_args(argv)
    dirs = papers()
    if not dirs:
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    results = [evaluate(d) for d in dirs]
    text = table(results)
    notes = [f"- {r.name}: " + "; ".join(r.misses) for r in results if r.misses]
    print(text)
    if args.misses:
        print("\n".join(notes))
    if args.write:
        write_results(_section(results, text, notes))
    return 0


def _section(results: list[PaperResult], text: str, notes: list[str]) -> str:
    n_fig = sum(r.truth_figures for r in results)
    n_sites = sum(r.truth_sites for r in results)
    base_c = sum(r.baseline_caption_found for r in results)
    base_s = sum(r.baseline_sites_hit for r in results)
    ours_s = sum(r.sites_hit for r in results)
    return "\n".join([
        "Produced by `python benchmarks/corpus_pdf.py --write` (PDF route, `read_pdf` on each paper's "
        "`paper.pdf`). A figure is found when number and physical page match truth.json; captions are "
        "compared with difflib on normalised text (caption_full when present); a truth site (ref + literal) "
        "is bound when a site on the right figure holds the words around the command in the source (see "
        "the module docstring for the matcher). Targets: recall and precision 1.0, captions >= 0.95 for "
        ">= 95% of figures, sites >= 95%. Times are CPU seconds of `read_pdf` alone.",
        "",
        text,
        "",
        f"Baselines on the same papers and matcher: a plain `Figure N:` caption regex over page text finds "
        f"{base_c}/{n_fig} figures ({base_c / n_fig:.0%}; the issue quotes 96%: it misses the `Figure 4.` "
        f"style of CVPR); a plain `Figure N` mention regex binds {base_s}/{n_sites} sites ({base_s / n_sites:.0%}; "
        f"the issue quotes 84%: bare numbers printed by a lone `\\ref` are invisible to it). The PDF route "
        f"binds {ours_s}/{n_sites} ({ours_s / n_sites:.0%}).",
        "",
        "Misses:",
        "",
        *(notes or ["- none"]),
        "",
        "The one site missed in bundler-eurosys is the literal \"Fig 2\" inside `\\cut{...}` (a macro defined "
        "empty): it is not printed in the PDF, so no PDF reader can find it; it is counted as a miss.",
    ])


if __name__ == "__main__":
    raise SystemExit(main())
