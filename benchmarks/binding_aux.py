"""Binding against LaTeX's own record: figlint's figures, captions and citing sites on real
papers, measured against what each paper's own build wrote (issue 12, "Field audit").

Truth (benchmarks/aux_truth.py, which imports nothing from figlint, so the measure is not
circular):
* figures = the list-of-figures entries in the build's .aux files (plus figures only a
  `figure.*`-anchored \\newlabel knows, e.g. `\\caption[]{..}`), with number, printed caption and
  physical page (hyperref anchor's named destination, else PDF page labels, else the folio);
* caption = the entry's text made plain; for `\\caption[short]{long}` the long one from the source;
* citing sites = a regex scanner of the sources (main file and its \\input/\\include'd files,
  comments, preamble, \\iffalse, false \\newif branches and empty-macro calls masked):
  \\ref-like commands naming a figure label (figure labels from the .aux anchors / cleveref
  types / position inside a figure environment) and typed "Figure N" / "Figs. 2-4", one site
  per figure per mention, ranges naming every figure in them, a figure's own caption left out.

Matching figlint's JSON (`figlint check X --format json --preview --no-cache`) to truth:
* figure: same normalised number and same physical page (recall over truth figures; precision
  over figlint's numbered figures, a number reported twice counting once; uncaptioned regions
  are counted apart: LaTeX lists no such figure, some are real graphics outside floats; a number
  LaTeX gave a float of sub-captions only, printed nowhere, is neither required nor an extra);
* caption: >= 0.95 similar to the printed caption, the best of three views (difflib ratio on
  lower-case ASCII words, one-letter words and the names a \\cref prints dropped; on the words
  of three characters or more; on the letters alone, which formula spacing cannot disturb) and
  of four renderings of the truth caption (formula letters kept or formulas removed; citations as
  numbers or as author-year); scored over figures found by number whose caption LaTeX recorded
  readably;
* site: a truth site is hit when a site bound to its figure has a sentence (with the eight words
  before it in its paragraph) holding at least half (at least two) of the words around the
  mention in the source (four before, three after), or all of those on one side (at least two;
  a sentence cut at the mention still holds the other side); no words: any site of that figure;
  on the LaTeX route a site at the same file and line also hits. One-to-one, as many as possible
  (maximum matching, best overlaps tried first).

Routes: "pdf" = the compiled PDF alone; "tex+pdf" = the main .tex with --pdf.

Papers: the field-audit papers (benchmarks/field_audit/papers/*.json) whose build is finished
under --build-dir (default /tmp/figlint_field_audit/<owner>__<name>@<commit12>/, the layout of
benchmarks/field_audit/run.py; its `.figlint-audit-{pdf,latex}.json` outputs are reused when
present and not older than the PDF, unless --rerun); `--corpus` measures the shared corpus
instead (each source compiled once in a copy under /tmp/binding_aux/corpus) and `--validate`
compares this truth with its truth.json.

Run:   python benchmarks/binding_aux.py [--only NAME] [--misses] [--write] [--rerun]
       python benchmarks/binding_aux.py --corpus [--validate]
--write puts the table into benchmarks/RESULTS.md ("Binding against LaTeX's own record (field
papers)") and the rows into benchmarks/field_audit/binding.json (repository, commit, main file,
scores; no paper content). Misses (with paper text) go to stdout only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import aux_truth as at  # noqa: E402

PAPERS = HERE / "field_audit" / "papers"
CORPUS = Path(os.environ.get("FIGLINT_CORPUS", "/work/shared/corpus/papers"))
SCRATCH = Path("/tmp/binding_aux")
# figlint's outputs: a helper measuring its own code keeps them apart from others' runs
RUNS = Path(os.environ.get("BINDING_RUNS", str(SCRATCH / "runs")))
HEADING = "Binding against LaTeX's own record (field papers)"
ROUTES = ("pdf", "tex+pdf")
RUNPY_OUT = {"pdf": ".figlint-audit-pdf.json", "tex+pdf": ".figlint-audit-latex.json"}
TIMEOUT = 1800
CAPTION_OK = 0.95


@dataclass
class Paper:
    name: str
    repo: str
    commit: str
    main_rel: str
    template: str
    root: Path          # the build's tree
    main: Path
    pdf: Path
    build: str = "latexmk -pdf"


@dataclass
class RouteScore:
    route: str
    figures: int = 0
    found: int = 0            # number and page
    found_number: int = 0     # number only
    predicted: int = 0        # figlint's numbered figures
    correct: int = 0
    uncaptioned: int = 0
    captions_ok: int = 0
    caption_scored: int = 0   # found figures whose printed caption LaTeX recorded readably
    sites: int = 0
    sites_hit: int = 0
    predicted_sites: int = 0
    cpu: float = 0.0
    error: str = ""
    misses: list = field(default_factory=list)
    classes: dict = field(default_factory=dict)

    def miss(self, cls: str, text: str) -> None:
        self.misses.append(f"{{{cls}}} {text}")
        self.classes[cls] = self.classes.get(cls, 0) + 1

    def ratio(self, a: str, b: str) -> float | None:
        d = getattr(self, b)
        return getattr(self, a) / d if d else None


# ------------------------------------------------------------------ papers


def field_papers(build_dir: Path) -> list[Paper]:
    out = []
    for path in sorted(PAPERS.glob("*.json")):
        rec = json.loads(path.read_text())
        if "not compiled" in rec.get("notes", "").lower():  # as run.py reads it
            continue
        name = rec["repo"].replace("/", "__")
        work = build_dir / f"{name}@{rec['commit'][:12]}"
        main = work / rec["main"]
        if not (work / ".figlint-audit-built").is_file() or not main.with_suffix(".pdf").is_file():
            continue
        out.append(Paper(name, rec["repo"], rec["commit"], rec["main"], rec.get("template", ""), work, main,
                         main.with_suffix(".pdf"), rec.get("build", "latexmk -pdf")))
    return out


def corpus_papers() -> list[Paper]:
    """Each shared-corpus paper, its source compiled once in a scratch copy (the .aux is needed)."""
    out = []
    for d in sorted(p for p in CORPUS.iterdir() if (p / "truth.json").is_file()):
        t = json.loads((d / "truth.json").read_text())
        work = SCRATCH / "corpus" / d.name
        main = work / t["main_tex"]
        stamp = work / ".binding-built"
        if not stamp.is_file():
            if work.exists():
                shutil.rmtree(work)
            shutil.copytree(d / "source", work)
            origin = (d / "ORIGIN.txt").read_text(errors="replace")
            m = re.search(r"replaced by minimal stubs: ([^(]*)\(", origin)
            for stub in (m.group(1).replace(",", " ").split() if m else []):
                (main.parent / stub).write_text("% stub, as the corpus build had\n")
            run = dict(cwd=main.parent, capture_output=True, timeout=1200, stdin=subprocess.DEVNULL)
            subprocess.run(["latexmk", "-pdf", "-f", "-interaction=nonstopmode", main.name], **run)
            # latexmk -f stops after an error; the corpus build was rerun until LaTeX converged
            for _ in range(3):
                if _same_text(main.with_suffix(".pdf"), d / "paper.pdf"):
                    break
                subprocess.run(["bibtex", main.stem], **run)
                subprocess.run(["pdflatex", "-interaction=nonstopmode", main.name], **run)
            stamp.write_text("built\n")
        if main.with_suffix(".pdf").is_file():
            out.append(Paper(d.name, d.name, "", t["main_tex"], "", work, main, main.with_suffix(".pdf")))
    return out


def _same_text(a: Path, b: Path, near: bool = False) -> bool:
    """Same page count and page texts (near: each page's text at least 95 % alike, as when a
    write node in a float moves a line across a page break)."""
    import difflib

    import pymupdf

    if not a.is_file():
        return False
    with pymupdf.open(str(a)) as x, pymupdf.open(str(b)) as y:
        if len(x) != len(y):
            return False
        for i in range(len(x)):
            ta, tb = x[i].get_text(), y[i].get_text()
            if ta != tb and (not near or difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio() < 0.95):
                return False
        return True


# ------------------------------------------------------------------ side run for the list of figures

# \addcontentsline restored at \begin{document}; and, for classes whose figure environment or
# \@caption never calls it (AGU, Copernicus), every \@caption{type}[short]{long} also writes
# \blxcaption{type}{number}{page}{long} to the .aux, expanded as a list-of-figures entry would be
# (\label, \index and \glossary gobbled, as LaTeX's \addtocontents does: a caption that begins
# with \label{..}, iopart's habit, otherwise writes the label's expanded internals, not its text)
HOOK = ("\\makeatletter\\let\\blxacl\\addcontentsline\\AtBeginDocument{\\let\\addcontentsline\\blxacl"
        "\\let\\blxcap\\@caption\\long\\def\\@caption#1[#2]#3{\\protected@write\\@auxout"
        "{\\let\\label\\@gobble\\let\\index\\@gobble\\let\\glossary\\@gobble}"
        "{\\string\\blxcaption{#1}{\\csname the#1\\endcsname}{\\thepage}{#3}}\\blxcap{#1}[{#2}]{#3}}}\\makeatother")


def side_aux(p: Paper, allowed: bool) -> tuple[Path | None, str]:
    """Classes such as ICML's and ACL's switch off \\addcontentsline, so their .aux lists no figure.
    Compile once more, in a copy, with \\addcontentsline restored at \\begin{document} (the .aux
    and .bbl of the real build copied under the side job's name, so every reference resolves
    as before), and keep that .aux only when every page's text equals the real PDF's."""
    if at.has_lof(p.main.with_suffix(".aux")):
        return None, ""
    srcs = " ".join(f.read_text(errors="replace") for f in p.main.parent.rglob("*.tex") if f.is_file())
    if "\\caption" not in srcs:
        return None, ""
    side = SCRATCH / "side" / p.name
    rel = p.main.relative_to(p.root)
    job = p.main.stem + "-lof"
    out_aux = side / rel.parent / f"{job}.aux"
    stamp = side / ".binding-side"
    # a side run made with another hook (an older one, before a fix) is made again
    hook_stamp = side / ".binding-side-hook"
    hook_id = hashlib.sha1(HOOK.encode()).hexdigest()[:12]
    if stamp.is_file() and allowed and (not hook_stamp.is_file() or hook_stamp.read_text().strip() != hook_id):
        stamp.unlink()
    if not stamp.is_file():
        if not allowed:
            return None, "no list of figures (side run deferred)"
        if side.exists():
            shutil.rmtree(side)
        shutil.copytree(p.root, side, ignore=shutil.ignore_patterns(".git"))
        d = side / rel.parent
        for ext in (".aux", ".bbl"):
            if (d / (p.main.stem + ext)).is_file():
                shutil.copy(d / (p.main.stem + ext), d / (job + ext))
        words = p.build.split(";")[0].split()
        env = dict(os.environ)
        while words and "=" in words[0] and not words[0].startswith("-"):
            k, _s, v = words.pop(0).partition("=")
            env[k] = v
        engine = "xelatex" if "-xelatex" in words else "lualatex" if "-lualatex" in words else "pdflatex"
        try:
            subprocess.run([engine, "-interaction=nonstopmode", f"-jobname={job}", HOOK + f"\\input{{{p.main.name}}}"],
                           cwd=d, capture_output=True, timeout=300, stdin=subprocess.DEVNULL, env=env)
        except subprocess.TimeoutExpired:
            pass  # a class that loops in this TeX Live: no side-run .aux, said below
        ok = _same_text(d / f"{job}.pdf", p.pdf)
        near = not ok and _same_text(d / f"{job}.pdf", p.pdf, near=True)
        stamp.write_text("verified\n" if ok else "near\n" if near else "differs\n")
        hook_stamp.write_text(hook_id + "\n")
    if not out_aux.is_file():
        return None, "side run produced no .aux"
    state = stamp.read_text().strip()
    if state == "differs":
        # numbers and captions do not depend on the layout; pages come from the build's PDF
        return out_aux, ("captions from a side run whose PDF layout differs from the build's: numbers and "
                         "captions used, pages found by caption search in the build's PDF")
    if state == "near":
        return out_aux, ("captions from a side run (class writes no list of figures); its PDF text differs from "
                         "the build's by moved lines only: pages are taken from the build's PDF")
    return out_aux, "list of figures from a side run (class switches it off), PDF text verified identical"


# ------------------------------------------------------------------ figlint


def run_figlint(p: Paper, route: str, rerun: bool, run: bool = True) -> tuple[dict | None, float, str]:
    """figlint's JSON paper record for a route, its CPU seconds (0 when reused), and an error."""
    cached = p.main.parent / RUNPY_OUT[route]
    mine = RUNS / p.name / f"{route}.json"
    if not rerun:
        # the newer of this script's own run and the field audit's (either may be the later)
        # with BINDING_RUNS set only its own outputs count: the field audit's may be another code's
        pool = (mine,) if os.environ.get("BINDING_RUNS") else (mine, cached)
        for c in sorted((x for x in pool if x.is_file()), key=lambda x: -x.stat().st_mtime):
            if c.stat().st_mtime >= p.pdf.stat().st_mtime:
                try:
                    doc = json.loads(c.read_text())
                    return doc["papers"][0], 0.0, ""
                except (ValueError, KeyError, IndexError):
                    pass
    if not run:
        return None, 0.0, "not run (--no-run)"
    mine.parent.mkdir(parents=True, exist_ok=True)
    target = p.pdf if route == "pdf" else p.main
    args = [sys.executable, "-m", "figlint", "check", str(target), "--format", "json", "--preview", "--no-cache",
            "-o", str(mine)]
    if route == "tex+pdf":
        args += ["--pdf", str(p.pdf)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, cwd=str(ROOT),
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, 0.0, "figlint timed out"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not mine.is_file():
        return None, cpu, f"no output (exit {proc.returncode}): {proc.stderr.strip()[-200:]}"
    try:
        doc = json.loads(mine.read_text())
    except ValueError:
        return None, cpu, "JSON does not parse"
    rec = doc["papers"][0]
    if rec.get("error"):
        return None, cpu, f"figlint error: {rec['error']}"[:200]
    return rec, cpu, ""


# ------------------------------------------------------------------ scoring


def _window(site: dict) -> str:
    sent, para = site.get("sentence") or "", site.get("paragraph") or ""
    at_ = para.find(sent)
    before = para[:at_].split()[-8:] if at_ > 0 else []
    # the LaTeX route's sentences keep the source's sub- and superscripts ("N_2H", "NH_{2}"),
    # which print glued to their base ("N2H", "NH2"), as the truth's context reads them
    return _SCRIPT.sub(r"\1", " ".join(before) + " " + sent)


_SCRIPT = re.compile(r"(?<=[A-Za-z0-9])[_^]\{?(\d{1,3})\}?")


def _rel(p: Paper, file: str | None, run_path: str | None = None) -> str | None:
    """A site's file relative to the paper's root. figlint writes paths relative to the folder
    it ran in, which is this checkout for its own runs but may be another (a worktree, the
    field audit's caller): with `run_path`, the main file as that run named it, the site's
    file is read relative to it, whatever folder the run was in."""
    if not file:
        return None
    path = Path(file)
    if not path.is_absolute() and run_path and not Path(run_path).is_absolute():
        path = p.main.parent / os.path.relpath(file, Path(run_path).parent)
    elif not path.is_absolute():
        path = ROOT / path
    try:
        return str(path.resolve().relative_to(p.root.resolve()))
    except ValueError:
        return None


def score_route(p: Paper, route: str, rec: dict, aux: at.AuxRecord, src: at.SourceRecord) -> RouteScore:
    s = RouteScore(route)
    tfigs = [f for f in aux.figures]
    s.figures = len(tfigs)
    figs = rec.get("figures", [])
    s.uncaptioned = sum(1 for f in figs if not f.get("number"))
    tnum_parts = {f.number: f.parts for f in tfigs}
    got: dict[str, list[dict]] = {}
    for f in figs:
        if f.get("number"):
            got.setdefault(at.norm_number(f["number"]), []).append(f)
    # a number LaTeX gave a float that prints no caption (sub-captions only, no entry, no label):
    # the page shows it nowhere, so neither reporting it (as LaTeX counts) nor not is scored
    unprinted = set(src.unprinted) - set(tnum_parts)
    # one per number LaTeX printed, plus each report beyond the parts it printed (duplicates)
    s.predicted = sum(1 + max(0, len(v) - tnum_parts[k]) if k in tnum_parts else len(v) for k, v in got.items()
                      if k not in unprinted)
    tnum = {f.number: f for f in tfigs}
    for num, lst in got.items():
        if num in unprinted:
            continue
        t = tnum.get(num)
        if t is not None and any(t.pdf_page is None or f.get("page") == t.pdf_page for f in lst):
            s.correct += 1
        # a number LaTeX printed on k parts (\ContinuedFloat) may be reported k times
        for f in (lst if t is None else lst[t.parts:]):
            s.miss("figure: a number LaTeX did not print" if t is None else "figure: reported twice",
                   f"extra: figlint Figure {num} p.{f.get('page')}" + ("" if t else " (no such figure)"))
    for t in tfigs:
        lst = got.get(t.number, [])
        if not lst:
            s.miss("figure: not reported", f"figure {t.number} (p.{t.pdf_page}) not reported")
            continue
        s.found_number += 1
        on_page = [f for f in lst if t.pdf_page is None or f.get("page") == t.pdf_page]
        if on_page:
            s.found += 1
        else:
            pages = [f.get("page") for f in lst]
            s.miss("figure: not placed on a printed page" if pages == [None] else "figure: on another page",
                   f"figure {t.number} reported on p.{pages}, LaTeX p.{t.pdf_page} ({t.page_from})")
        best, best_text = -1.0, ""
        for f in on_page or lst:
            mine = (f.get("caption") or {}).get("text") or ""
            sc = max([at.similarity(mine, v) for v in t.variants] or [0.0])
            if sc > best:
                best, best_text = sc, mine
        if t.caption_from == "none":
            # sub-captions only (caption_tex ""): no main caption is right; else LaTeX kept no
            # readable record of the caption: not scored
            if t.caption_tex != "":
                continue
            s.caption_scored += 1
            if not at.words(best_text):
                s.captions_ok += 1
            else:
                s.miss("caption: text where LaTeX printed none", f"caption {t.number}: LaTeX printed none, "
                                                                          f"figlint={best_text[:160]!r}")
            continue
        s.caption_scored += 1
        if best >= CAPTION_OK:
            s.captions_ok += 1
        else:
            s.miss(caption_class(route, best_text, t.caption),
                   f"caption {t.number} {best:.2f} [{t.caption_from}]: figlint={best_text[:160]!r} "
                   f"latex={t.caption[:160]!r} (lengths {len(at.words(best_text))}/{len(at.words(t.caption))})")
    # sites
    predicted: dict[str, list[tuple[int, tuple[str, str | None, int | None]]]] = {}
    n = 0
    for f in figs:
        if not f.get("number"):
            continue
        for site in f.get("citing_sites", []):
            loc = site.get("location") or {}
            predicted.setdefault(at.norm_number(f["number"]), []).append(
                (n, (_window(site), _rel(p, loc.get("file"), rec.get("path")) if route != "pdf" else None, loc.get("line"))))
            n += 1
    s.predicted_sites = sum(len(v) for v in predicted.values())
    s.sites = len(src.sites)
    pairs = []
    for ti, site in enumerate(src.sites):
        cands = predicted.get(site.figure, []) + (predicted.get(site.alt, []) if site.alt else [])
        need = 0 if not site.context else (1 if len(site.context) == 1 else max(2, (len(site.context) + 1) // 2))
        for pi, (window, file, line) in cands:
            if file is not None and file == site.file and line == site.line:
                pairs.append((100, ti, pi))
                continue
            have = set(at.words(window))
            sc = sum(1 for w in site.context if w in have)
            # a sentence cut just before (or after) the mention still holds all words on its other side
            side = any(len(part) >= 2 and all(w in have for w in part) for part in (site.before, site.after))
            if sc >= need or side:
                pairs.append((sc, ti, pi))
    used_t = max_matching(pairs)
    s.sites_hit = len(used_t)
    for ti, site in enumerate(src.sites):
        if ti not in used_t:
            why = "figure not reported" if site.figure not in got else \
                f"{len(predicted.get(site.figure, []))} sites bound to it, none here"
            s.miss("site: its figure not reported" if site.figure not in got else "site: not bound to its figure",
                   f"site {site.file}:{site.line}:{site.column} Figure {site.figure} {site.kind}/{site.macro}"
                   f" words={site.context} ({why})")
    return s


_KEY = re.compile(r"\[[A-Za-z][\w:.\-]*\d{2,4}[\w:.\-]*(?:,\s*[\w:.\-]+)*\]")
_LEAK = re.compile(r"node \[|\b(?:csentence|mathchoice|textsmaller|Pointinghand|ClassError|boldmath|displaystyle|"
                   r"textstyle|big|Big|bigl|bigr|left|right|mathrm|mathbf|textbf|selectfont|fontsize|relax|"
                   r"ignorespaces|protect|mskip|thinmuskip|SIunits|Pointinghand)\b|@")


def caption_class(route: str, mine: str, truth: str) -> str:
    """A coarse class of a caption miss, from the two texts."""
    nm, nt = len(at.words(mine)), len(at.words(truth))
    if nm == 0:
        return "caption: not read (empty)"
    if route != "pdf" and _KEY.search(mine) and not _KEY.search(truth):
        return "caption: citation printed as its key (LaTeX route)"
    if route != "pdf" and _LEAK.search(mine) and not _LEAK.search(truth):
        return "caption: macro internals in the text (LaTeX route)"
    if nm > 1.15 * nt + 1 and at.prefix_similarity(truth, mine) >= 0.8:
        return "caption: runs on past its end (figure or body text taken in)"
    if nm < 0.85 * nt and at.prefix_similarity(mine, truth) >= 0.8:
        return "caption: cut short"
    return "caption: text differs"


def max_matching(pairs: list[tuple[int, int, int]]) -> set[int]:
    """Truth sites matched one-to-one to figlint's sites (of the same figure) so that as many
    as possible are matched (augmenting paths, best-scoring edges tried first): a greedy pass
    lets a site whose context runs into the next sentence take that sentence's site."""
    edges: dict[int, list[int]] = {}
    for _sc, ti, pi in sorted(pairs, key=lambda x: (-x[0], x[1], x[2])):
        edges.setdefault(ti, []).append(pi)
    owner: dict[int, int] = {}

    def augment(ti: int, seen: set) -> bool:
        for pi in edges.get(ti, []):
            if pi in seen:
                continue
            seen.add(pi)
            if pi not in owner or augment(owner[pi], seen):
                owner[pi] = ti
                return True
        return False

    for ti in sorted(edges, key=lambda t: len(edges[t])):
        augment(ti, set())
    return set(owner.values())


# ------------------------------------------------------------------ validation on the corpus


def validate(p: Paper, aux: at.AuxRecord, src: at.SourceRecord) -> list[str]:
    """Differences between this truth and the corpus truth.json (made by another generator)."""
    t = json.loads((CORPUS / p.name / "truth.json").read_text())
    out = []
    mine = {f.number: f for f in aux.figures}
    theirs = {f["number"]: f for f in t["figures"]}
    for n in sorted(set(mine) ^ set(theirs)):
        out.append(f"figure {n}: {'only here' if n in mine else 'only in truth.json'}")
    for n in sorted(set(mine) & set(theirs)):
        a, b = mine[n], theirs[n]
        if a.pdf_page != b["pdf_page"]:
            out.append(f"figure {n}: page {a.pdf_page} ({a.page_from}) vs {b['pdf_page']}")
        ref = b.get("caption_full") or b["caption"]
        sc = max([at.similarity(v, ref) for v in a.variants] or [0.0])
        if sc < 0.95 and ref:
            out.append(f"figure {n}: caption {sc:.2f} here={a.caption[:100]!r} truth={ref[:100]!r}")
    mine_sites = {}
    for s in src.sites:
        mine_sites.setdefault((s.figure, s.file, s.line), 0)
        mine_sites[(s.figure, s.file, s.line)] += 1
    their_sites = {}
    for f in t["figures"]:
        for s in f["ref_sites"] + f["literal_sites"]:
            their_sites.setdefault((f["number"], s["file"], s["line"]), 0)
            their_sites[(f["number"], s["file"], s["line"])] += 1
    for k in sorted(set(mine_sites) | set(their_sites)):
        a, b = mine_sites.get(k, 0), their_sites.get(k, 0)
        if a != b:
            out.append(f"sites Figure {k[0]} at {k[1]}:{k[2]}: {a} here, {b} in truth.json")
    return out


# ------------------------------------------------------------------ table


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def row_dict(p: Paper, aux: at.AuxRecord, src: at.SourceRecord, scores: list[RouteScore]) -> dict:
    return {
        "repo": p.repo, "commit": p.commit, "main": p.main_rel, "template": p.template,
        "truth": {"figures": len(aux.figures), "sites": len(src.sites),
                  "captions_from": {k: sum(1 for f in aux.figures if f.caption_from == k)
                                    for k in ("lof", "source-long", "source", "none")},
                  "pages_from": {k: sum(1 for f in aux.figures if f.page_from.startswith(k))
                                 for k in ("anchor", "page-label", "folio", "caption-search", "unknown")},
                  "undecided": len(src.undecided)},
        "routes": {s.route: {"fig_recall": s.ratio("found", "figures"),
                             "fig_precision": s.ratio("correct", "predicted"),
                             "numbered": s.predicted, "uncaptioned": s.uncaptioned,
                             "caption_match": s.ratio("captions_ok", "caption_scored"),
                             "site_recall": s.ratio("sites_hit", "sites"), "sites_bound": s.predicted_sites,
                             "cpu_s": round(s.cpu, 1), "error": s.error, "miss_classes": s.classes}
                   for s in scores},
    }


def table(rows: list[dict]) -> str:
    out = ["| paper (commit) | template | route | figures | recall | precision | uncapt. | captions | sites | "
           "site recall | below bar |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        name = f"{r['repo']} ({r['commit'][:7]})" if r["commit"] else r["repo"]
        for route, s in r["routes"].items():
            low = []
            if s["error"]:
                low = ["error"]
            else:
                if s["fig_recall"] is not None and s["fig_recall"] < 0.98:
                    low.append("R")
                if s["fig_precision"] is not None and s["fig_precision"] < 0.98:
                    low.append("P")
                if s["caption_match"] is not None and s["caption_match"] < 0.95:
                    low.append("C")
                if s["site_recall"] is not None and s["site_recall"] < 0.98:
                    low.append("S")
            out.append(f"| {name} | {r['template'][:28]} | {route} | {r['truth']['figures']} | {_pct(s['fig_recall'])} "
                       f"| {_pct(s['fig_precision'])} | {s['uncaptioned']} | {_pct(s['caption_match'])} "
                       f"| {r['truth']['sites']} | {_pct(s['site_recall'])} | {' '.join(low) or 'ok'} |")
            name = ""
    return "\n".join(out)


def totals(rows: list[dict]) -> str:
    lines = []
    for route in ROUTES:
        rs = [r for r in rows if route in r["routes"] and not r["routes"][route]["error"]]
        n = len(rs)
        if not n:
            continue

        def count(key: str, bar: float) -> int:
            return sum(1 for r in rs if r["routes"][route][key] is not None and r["routes"][route][key] < bar)

        ok = sum(1 for r in rs if all((r["routes"][route][k] is None or r["routes"][route][k] >= b)
                                      for k, b in (("fig_recall", .98), ("fig_precision", .98),
                                                   ("caption_match", .95), ("site_recall", .98))))
        lines.append(f"- {route}: {ok} of {n} papers meet all four bars; below the bar: figure recall "
                     f"{count('fig_recall', .98)}, precision {count('fig_precision', .98)}, captions "
                     f"{count('caption_match', .95)}, sites {count('site_recall', .98)}"
                     + (f"; {len(rows) - n} route errors" if len(rows) - n else ""))
    return "\n".join(lines)


def class_table(rows: list[dict]) -> str:
    """Misses per coarse class and route: count (papers)."""
    tally: dict = {}
    for r in rows:
        for route, sc in r["routes"].items():
            for cls, n in (sc.get("miss_classes") or {}).items():
                t = tally.setdefault(cls, {}).setdefault(route, [0, 0])
                t[0] += n
                t[1] += 1
    out = ["| miss class | " + " | ".join(ROUTES) + " |", "|---|" + "---|" * len(ROUTES)]
    for cls in sorted(tally):
        cells = [f"{tally[cls][r][0]} ({tally[cls][r][1]})" if r in tally[cls] else "–" for r in ROUTES]
        out.append(f"| {cls} | " + " | ".join(cells) + " |")
    return "\n".join(out)


CORPUS_NOTE = ("Check of the truth: on the 17 shared-corpus papers (`--corpus --validate`, each source compiled "
               "again here) figure numbers, physical pages and captions agree with their truth.json; the 7 site "
               "differences are by design (two sub-figure `\\ref`s in one mention are one site here; panel labels "
               "typed inside a figure's own environment are not sites here; a literal inside an empty macro). "
               "figlint there: PDF route 16 of 17 papers and LaTeX route 17 of 17 meet all four bars (the PDF route's "
               "one: a site of 47 not bound, ldade-elsevier).")

TRUTH_NOTE = ("Truth fixes of 2026-12-06 (the benchmark, not figlint, was wrong; checked by extracting the truth of all "
              "field and corpus papers before and after: only these papers changed): memoir writes a label's value "
              "as `\\M@TitleReference{number}{title}`, whose figure labels were not recognised (a thesis lost all 12 "
              "sites); a range of two references (`Figs.~\\ref{a}--\\ref{b}`) now cites the figures between its "
              "ends, as a typed range does (25 sites, 8 papers); the side run for classes with no list of figures "
              "wrote a caption beginning with `\\label{..}` (iopart) as the label's expanded internals, read as the "
              "page number (8 captions); a citing site in a table cell takes its context words from its cell only "
              "(15 sites, 3 papers); `\\char N` (an icon) prints no number.")


CAUSES = r"""General causes of the misses (read from `--misses` on the run of 2026-12-05, code of
main f1e9339; counts are misses, papers in parentheses). Each is a cause to fix, not a paper:

PDF route
- Figures not reported (14 figures, 5 papers) or reported twice (2): the caption is not bound to
  its graphic, so the figure comes out uncaptioned: APA (apa7) puts a bold "Figure N" line and an
  italic title *above* the graphic and a "Note." below it (5; fixed on rotated12: a label
  alone on its line no longer narrows the caption's range); a thesis caption under a grid of
  lettered panels (4). Pages holding only floats (full-page figure pages) give no figure at all
  (3, 2 papers). A lettered number "Figure 6.3a:" is not read as a label (2). A continued float
  (`\ContinuedFloat`) or an eLife figure with supplements is reported twice (2).
- Captions (13 papers below 0.95): runs on past its end into the diagram's own labels (boxes,
  circled step numbers, tick labels), into neighbouring margin notes of tufte margin captions, or
  into the body text below (13 captions, 4 papers); cut short at an inline formula, at a TikZ
  circled letter, at the switch from a bold title to the legend text (PLOS), or losing its last
  line (8, 4); not read at all though the figure is found: IEEEtran conference "Fig. N" alone on a
  line above a small-caps caption, and thesis captions under panel grids (8, 4); text differs:
  lines with sub/superscripted maths read out of order, spacing accents not composed
  ("a¨" for "ä") (10, 6).
- Citing sites (20 papers below 0.98; 88 not bound, 31 lost with their figure): Springer svmult
  books bind no site at all although the text prints "Figure 2.1" (44 of 51 sites, 1 paper);
  mentions in an appendix after the references (6, 1); a site is bound but its sentence is cut at
  the mention, so the words around it are not in the sentence: a parenthesised mention after a
  sentence end "(Figure 3(A)).", a mention right after a footnote mark, URL or citation (about 14,
  11 papers); the second and later numbers of a list ("Figures 7 and 8", "Figs. 3 and 4",
  cleveref "figures 3.6, 3.7 and 3.9") (5, 4); supplementary series "Supplementary Fig. S1A",
  "S1 Fig" and "Extended Data Fig. 5" (8, 2); mentions inside another figure's caption (2, 1);
  a bare `\ref` number without "Figure" ("shown in 7", "(1A)") (2, 2); NeurIPS checklist
  answers (2, 1).

LaTeX route (sources with the PDF)
- Numbering (12 papers below 0.98 recall; 49 figures not reported, 53 reported under a number
  LaTeX did not print, with 85 of their sites): the route numbers figures with its own counter and
  ignores the class's appendix numbering (MNRAS A1/B1, sn-jnl B1, AGU A1: 4 papers, 20 figures),
  a redefined `\thefigure` (PNAS and PLOS supplements "S1": 2 papers, 18 figures) and labels typed
  into the caption under `labelformat=empty` ("Figure S2.1:", 8 figures); figures in files found
  only through the build's search path (TEXINPUTS in latexmkrc: FL005 "file not found", 3
  figures); a `\ContinuedFloat` part reported as a second figure of the same number (1); a figure
  environment whose `\caption` is commented out gets a number (1).
- Figures the PDF route could not find are not placed on a printed page either (page unknown:
  14 figures, 5 papers): the route takes the PDF route's regions instead of locating each float.
- Captions (11 papers below 0.95): `\cite` rendered as its key "[author2021key]" instead of
  the printed "[67]" / "(Author, Year)" (6 captions, 6 papers); macro internals expanded into the
  text: `\bm` as "mathchoice boldmath displaystyle...", TikZ node code of a circled-letter macro, a
  class error message, "csentence", "Pointinghand", "mskip thinmuskip", "SIunits ... micro meter"
  (about 25 captions, 8 papers); tufte's `\caption[][offset]{...}` read as the caption "[" (7).
- Citing sites (11 papers below 0.98): besides those lost with misnumbered figures, a `\ref` to
  a sub-figure label (printed "2a") is not bound to its figure, directly or through a user macro
  `\figref{#1}` -> `\ref{fig:#1}` (22 sites, 2 papers).

Truth limits: captions set in a citation style LaTeX writes no `\bibcite` for (biblatex) render
citations as "?"; classes that write no list of figures get it from a side run (ICML, AASTeX,
AGU, Copernicus; in three of them the side run's layout differs, so pages come from caption
search in the build's PDF); conditionals other than `\iffalse`, `\if 0`, `\newif` switches and
`\ifpdf` keep both branches (listed per paper under `--misses`, "undecided")."""


def write(rows: list[dict]) -> None:
    sys.path.insert(0, str(HERE))
    from results_md import write_section

    body = "\n".join([
        "Produced by `python benchmarks/binding_aux.py --write` on the field-audit papers whose build is "
        "finished (see the module docstring). Truth is what each paper's own LaTeX run recorded: the "
        "list-of-figures entries and `\\newlabel`s of its .aux files (number, printed page, caption) and a "
        "small regex scanner of its sources for citing sites (`\\ref`-like commands naming a figure label, "
        "typed \"Figure N\"; one site per referenced figure per mention; own caption left out). It does not "
        "use figlint's parser. Figures match on number and physical page; captions when >= 0.95 similar (difflib "
        "on words, on prose words, on letters alone: formula spacing and citation style aside); sites on the words "
        "around the mention (or, LaTeX route, the same file:line), one-to-one. Bars (issue 12): "
        "recall and precision >= 0.98 (R, P), captions >= 0.95 (C), sites >= 0.98 (S). Uncaptioned "
        "regions are not in precision (LaTeX lists none; some are graphics outside floats). A caption's "
        "citations that no `\\bibcite` records (biblatex) and its acronyms are read off the printed page "
        "between the stretches LaTeX's record holds (aux_truth.fill_wild). With `--merge`, only the rows of "
        "papers whose build is on the machine are measured again; binding.json says for each row the figlint "
        "commit it was measured at (`measured_at`; rows without it predate that field). "
        + _measured_note(rows),
        "",
        table(rows),
        "",
        totals(rows),
        "",
        CORPUS_NOTE,
        "",
        TRUTH_NOTE,
        "",
        "Misses by coarse class (count, papers in parentheses):",
        "",
        class_table(rows),
        "",
        CAUSES,
    ])
    write_section(HEADING, body)
    (HERE / "field_audit" / "binding.json").write_text(json.dumps(rows, indent=1) + "\n")


# ------------------------------------------------------------------ main


def evaluate(p: Paper, rerun: bool, show: bool, check: bool, routes=ROUTES, side: bool = True,
             run: bool = True) -> dict | None:
    try:
        aux_path, side_note = side_aux(p, side)
        aux, src = at.truth(p.main, p.pdf, p.root, aux_path)
        if side_note:
            aux.notes.insert(0, side_note)
    except (OSError, ValueError, IndexError) as exc:
        print(f"{p.name}: truth not readable: {exc}")
        return None
    scores = []
    for route in routes:
        rec, cpu, err = run_figlint(p, route, rerun, run)
        if rec is None:
            s = RouteScore(route, error=err, figures=len(aux.figures), sites=len(src.sites))
        else:
            s = score_route(p, route, rec, aux, src)
            s.cpu = cpu
        scores.append(s)
    row = row_dict(p, aux, src, scores)
    if show:
        print(f"== {p.name} {p.main_rel}: {len(aux.figures)} figures, {len(src.sites)} sites; "
              f"captions {row['truth']['captions_from']}, pages {row['truth']['pages_from']}")
        for n in aux.notes:
            print(f"   aux: {n}")
        for u in src.undecided:
            print(f"   undecided: {u}")
        for s in scores:
            print(f"   [{s.route}] {s.error}" if s.error else "", end="")
            for m in s.misses:
                print(f"   [{s.route}] {m}")
    if check:
        for d in validate(p, aux, src):
            print(f"   validate {p.name}: {d}")
    return row


def _measured_note(rows: list[dict]) -> str:
    at: dict[str, int] = {}
    for r in rows:
        k = r.get("measured_at") or "before measured_at was recorded"
        at[k] = at.get(k, 0) + 1
    return "Rows by commit measured at: " + ", ".join(f"{k} {n}" for k, n in sorted(at.items(), key=lambda kv: -kv[1])) + "."


def _head() -> str:
    """The figlint commit a row was measured at (blank outside a git checkout)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        return out.stdout.strip()
    except OSError:
        return ""


def merged(rows: list[dict]) -> list[dict]:
    """binding.json's rows with those of `rows` put in their place (matched by repository and
    commit), the others kept as they were measured (their `measured_at` says when)."""
    path = HERE / "field_audit" / "binding.json"
    fresh = {(r["repo"], r["commit"]): r for r in rows}
    old = json.loads(path.read_text()) if path.exists() else []
    out = [fresh.pop((r["repo"], r["commit"]), r) for r in old]
    return out + list(fresh.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", type=Path, default=Path("/tmp/figlint_field_audit"))
    ap.add_argument("--corpus", action="store_true", help="measure the shared corpus papers instead")
    ap.add_argument("--validate", action="store_true", help="with --corpus: compare this truth with truth.json")
    ap.add_argument("--only", action="append", default=[], help="paper name (owner__name or corpus folder)")
    ap.add_argument("--misses", action="store_true", help="print every miss (paper text: stdout only)")
    ap.add_argument("--rerun", action="store_true", help="run figlint again even when an output exists")
    ap.add_argument("--no-run", action="store_true", help="only score figlint outputs that already exist")
    ap.add_argument("--no-side", action="store_true", help="never compile a side run for the list of figures")
    ap.add_argument("--truth-only", action="store_true", help="extract truth, do not run figlint")
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md and field_audit/binding.json")
    ap.add_argument("--merge", action="store_true",
                    help="with --write: keep the rows of binding.json this run did not measure (papers whose "
                         "build is elsewhere), replacing only those it did")
    args = ap.parse_args(argv)
    papers = corpus_papers() if args.corpus else field_papers(args.build_dir)
    if args.only:
        papers = [p for p in papers if p.name in args.only or any(o in p.name for o in args.only)]
    if not papers:
        print("no built papers found")
        return 1
    rows = []
    for p in papers:
        row = evaluate(p, args.rerun, args.misses, args.validate and args.corpus, () if args.truth_only else ROUTES,
                       side=not args.no_side, run=not args.no_run)
        if row is not None:
            rows.append(row)
            sys.stdout.flush()
    if not args.truth_only:
        print(table(rows))
        print(totals(rows))
        print(class_table(rows))
    if args.write and not args.corpus and not args.truth_only:
        head = _head()
        for row in rows:
            row["measured_at"] = head
        if args.merge:
            rows = merged(rows)
        write(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
