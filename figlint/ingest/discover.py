"""Finding what belongs together: a chapter file's main file, a paper's compiled PDF.

- `main_file_for(tex)`: a `.tex` file without `\\documentclass` is a chapter: its main file is named
  by a `%!TEX root` comment, else it is the main file above it (in its folder
  or up to three folders up, never above a git root) that `\\input`s,
  `\\include`s, `\\subfile`s or `\\import`s it. When none is found, the input
  is reported as not a main file (an InputError), not linted half-blind.
- `compiled_pdf_candidates(root, main)`: where the PDF of a main file may be:
  beside it, in latexmk's output or aux directory (`-outdir`/`-output-directory`
  in the `.latexmkrc`, `$out_dir`/`$aux_dir`), then `build/`, `out/`,
  `output/`. The first that exists is used; the list is also what the "no PDF
  found" hint and the results cache (an absent PDF that appears later) use.
- `unresolved_marks(pdf)`: where the compiled PDF prints `??` for a reference
  (LaTeX's mark for a label it did not know on that run).

Nothing here executes anything from the paper: `.latexmkrc` is Perl, and it is
only searched with regular expressions for literal directory names.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from figlint.lazyre import lazy

_DOCCLASS = lazy(r"^[^%\n]*\\documentclass\s*(\[[^\]]*\])?\s*\{([^}]*)\}", re.M)
_BEGIN_DOC = lazy(r"^[^%\n]*\\begin\s*\{document\}", re.M)
_INCLUDE = lazy(r"^[^%\n]*?\\(?:input|include|subfile|import|subimport|includefrom|subincludefrom)\s*"
                      r"(?:\{([^}]*)\}\s*)?\{([^}]*)\}", re.M)
_MAX_HEAD = 400_000
_UP_LEVELS = 3


def _head(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(_MAX_HEAD).decode("utf-8", errors="replace")
    except OSError:
        return ""


def is_main_file(text: str) -> bool:
    m = _DOCCLASS.search(text)
    return bool(m) and m.group(2).strip() not in ("subfiles", "standalone") and bool(_BEGIN_DOC.search(text))


def _includes(main: Path, text: str, target: Path) -> bool:
    """Whether `main` \\input's `target` (relative to main's folder, with or without .tex)."""
    base = main.parent
    for m in _INCLUDE.finditer(text):
        sub = (m.group(1) or "").strip()
        name = m.group(2).strip().strip('"')
        if not name:
            continue
        cand = Path(os.path.normpath(base / sub / name))
        if cand == target or cand.with_name(cand.name + ".tex") == target:
            return True
    return False


def main_file_for(tex: str) -> str | None:
    """The main file a chapter `.tex` belongs to (None when the file is itself a main file).

    Raises InputError when it is not a main file and no main file above includes it."""
    from figlint.errors import InputError

    p = Path(os.path.abspath(tex))
    text = _head(p)
    if _DOCCLASS.search(text):
        return None  # a main file (or a subfile/standalone file): the LaTeX reader takes it as before
    if re.search(r"^\s*%\s*!\s*tex\s+root\s*=", text[:5000], re.I | re.M):
        return None  # the LaTeX reader follows the magic comment itself
    if _class_in_preamble(p, text):
        return None  # the preamble is \input from a header file (a template's "\input{header}")
    found = _main_including(p, depth=3)
    if found is not None:
        return str(found)
    raise InputError(f"{tex} is not a main LaTeX file (no \\documentclass and \\begin{{document}}), and no main "
                     f"file in its folder or up to {_UP_LEVELS} folders above \\input's it: pass the main file "
                     f"(or add '%!TEX root = main.tex' to its first lines)")


def _class_in_preamble(p: Path, text: str, depth: int = 2) -> bool:
    """Whether a file with \\begin{document} but no \\documentclass of its own gets its class
    from a file it \\input's before \\begin{document} (in its folder tree: a template's
    "\\input{header}" that holds \\documentclass and the packages)."""
    begin = _BEGIN_DOC.search(text)
    if begin is None:
        return False
    from figlint.ingest.searchpath import is_inside

    root = str(p.parent)
    root_real = os.path.realpath(root)
    for m in _INCLUDE.finditer(text[:begin.start()]):
        name = m.group(2).strip().strip('"')
        if not name:
            continue
        cand = os.path.normpath(os.path.join(root, (m.group(1) or "").strip(), name))
        # as TeX looks for it (name.tex first), inside the paper's tree as the reader allows
        for f in (cand + ".tex", cand):
            if is_inside(f, root) and os.path.isfile(f) and is_inside(os.path.realpath(f), root_real):
                head = _head(Path(f))
                if _DOCCLASS.search(head) or (depth > 0 and _class_in_preamble(Path(f), head + "\\begin{document}", depth - 1)):
                    return True
                break
    return False


def _main_including(p: Path, depth: int) -> Path | None:
    """The main file that includes `p`, directly or through up to `depth` chapter files."""
    here = p.parent
    chapters: list[Path] = []
    for _ in range(_UP_LEVELS + 1):
        for cand in sorted(here.glob("*.tex")):
            if cand == p:
                continue
            head = _head(cand)
            if _includes(cand, head, p):
                if is_main_file(head):
                    return cand
                chapters.append(cand)
        if (here / ".git").exists() or here.parent == here:
            break
        here = here.parent
    if depth > 0:
        for ch in chapters:
            found = _main_including(ch, depth - 1)
            if found is not None:
                return found
    return None


# ---------------------------------------------------------------- compiled PDF

_RC_NAMES = (".latexmkrc", "latexmkrc")
_RC_DIR = lazy(r"^\s*\$(out_dir|aux_dir)\s*=\s*(['\"])([^'\"\n]+)\2", re.M)
_RC_FLAG = lazy(r"-(?:outdir|output-directory|auxdir|aux-directory)\s*=?\s*['\"]?([^\s'\"]+)")
_USUAL_DIRS = ("build", "out", "output")


def latexmk_dirs(folder: Path) -> list[str]:
    """Output directories named in a latexmkrc in `folder` (out_dir before aux_dir)."""
    found: list[tuple[int, str]] = []
    for name in _RC_NAMES:
        text = _head(folder / name)
        if not text:
            continue
        for m in _RC_DIR.finditer(text):
            found.append((0 if m.group(1) == "out_dir" else 1, m.group(3)))
        for m in _RC_FLAG.finditer(text):
            found.append((0, m.group(1)))
    out = []
    for _, d in sorted(found, key=lambda t: t[0]):
        if d not in out:
            out.append(d)
    return out


def compiled_pdf_candidates(root: str, main_rel: str) -> list[Path]:
    """Every place the main file's PDF may be, in the order they are tried."""
    main = Path(root) / main_rel
    folder = main.parent
    name = main.with_suffix(".pdf").name
    dirs = [folder]
    for d in latexmk_dirs(folder) + ([] if folder == Path(root) else latexmk_dirs(Path(root))):
        base = Path(d) if os.path.isabs(d) else folder / d
        dirs.append(base)
    dirs += [folder / d for d in _USUAL_DIRS]
    out: list[Path] = []
    for d in dirs:
        c = Path(os.path.normpath(d / name))
        if c not in out:
            out.append(c)
    return out


def find_pdf(root: str, main_rel: str) -> tuple[Path | None, list[Path]]:
    cands = compiled_pdf_candidates(root, main_rel)
    for c in cands:
        if c.is_file():
            return c, cands
    return None, cands


# ---------------------------------------------------------------- "??" in the PDF

# LaTeX prints "??" for a \ref it cannot resolve. Only a "??" where a figure is
# referenced counts ("Figure ??", "Fig. ??", "Figs. 2 and ??"): "Appendix ??" and
# natbib's "(??)" for citations are other problems, and do not mislead the figure rules.
_FIG_QQ = lazy(r"(?i)\b(?:fig(?:ure)?s?\.?|abb(?:ildung)?\.?)\s*(?:[\w.()]+\s*(?:,|and|&)\s*)*\?\?(?![?\w])")


def unresolved_in_pages(pages) -> tuple[int, list[tuple[int, str]]]:
    """(count, examples (page, context)) of figure references printed as `??`, from the
    pages the PDF reader already read (pdf_layout.PageData: no second pass over the PDF)."""
    count = 0
    examples: list[tuple[int, str]] = []
    for pd in pages:
        text = " ".join(ln.text for ln in pd.lines)
        if "??" not in text:
            continue
        for m in _FIG_QQ.finditer(text):
            count += 1
            if len(examples) < 5:
                examples.append((pd.index + 1, " ".join(text[max(0, m.start() - 20):m.end() + 20].split())))
    return count, examples
