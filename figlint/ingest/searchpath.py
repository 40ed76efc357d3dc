"""Where the author's build looks for files besides the main file's folder.

A paper's build may find inputs through ``TEXINPUTS`` (``TEXINPUTS=..: latexmk -pdf``, or a
``latexmkrc`` beside the main file with ``ensure_path('TEXINPUTS', '../')`` or
``$ENV{'TEXINPUTS'} = '../:'``). figlint honours the same folders, read as text (a latexmkrc is
never run), but only inside the project that holds the paper (the nearest folder above it with
``.git`` or ``pyproject.toml``): a search path can widen the paper's tree to its project, never
beyond it.

Also: include paths built from simple text macros (``\\def\\PATH{.}`` then
``\\import{\\PATH/ch1/}{ch1}``), expanded as LaTeX would.
"""

from __future__ import annotations

import os
import re

_RC_NAMES = ("latexmkrc", ".latexmkrc")
# ensure_path('TEXINPUTS', '../', './style//')  /  $ENV{'TEXINPUTS'} = '../:' . $ENV{'TEXINPUTS'};
_ENSURE = re.compile(r"""ensure_path\s*\(\s*['"]TEXINPUTS['"]\s*,([^)]*)\)""")
# (the statement ends at a ';' outside quotes: `.;./src//;` is one quoted value)
_ENV = re.compile(r"""\$ENV\s*\{\s*['"]?TEXINPUTS['"]?\s*\}\s*=\s*((?:'[^']*'|"[^"]*"|[^;'"])*);""")
# $out_dir = 'build';  $aux_dir = "tmp";  where latexmk writes the .fls record
_OUT_DIR = re.compile(r"""\$(?:out|aux)_dir\s*=\s*['"]([^'"]+)['"]""")
_QUOTED = re.compile(r"""'([^']*)'|"([^"]*)\"""")
MAX_DIRS = 20
# folders under one `dir//` entry (kpathsea searches the whole tree below it)
MAX_WALK = 200


def _split(value: str) -> list[str]:
    # kpathsea separates path elements with ':' on Unix and ';' on Windows; a latexmkrc written
    # on Windows (`.;./src//;./fig//;`) works on Unix too, where no folder name holds ';'
    return re.split(r"[;:]" if os.name != "nt" else ";", value)


def is_inside(path: str, root: str) -> bool:
    """True when `path` (already normalised) lies in the tree `root`."""
    root = os.path.normpath(root)
    path = os.path.normpath(path)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _rc_files(main_dir: str, project: str | None) -> list[tuple[str, str]]:
    """(folder, text) of each latexmkrc beside the main file or in a folder above it inside the
    project (latexmk run from the repository's root with the main file in `src/`, as its
    @default_files says): its paths are relative to its own folder, where latexmk runs TeX."""
    out = []
    d = os.path.normpath(main_dir)
    proj = os.path.normpath(project) if project else d
    while True:
        for name in _RC_NAMES:
            path = os.path.join(d, name)
            try:
                if os.path.getsize(path) > 100_000:
                    continue
                with open(path, encoding="utf-8", errors="replace") as fh:
                    out.append((d, re.sub(r"(?m)#.*$", "", fh.read())))  # Perl comments gone
            except OSError:
                continue
        if d == proj or not is_inside(d, proj) or os.path.dirname(d) == d:
            break
        d = os.path.dirname(d)
    return out


def _rc_entries(rcs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(folder the entry is relative to, entry) of the TEXINPUTS the latexmkrc files set."""
    out: list[tuple[str, str]] = []
    for base, text in rcs:
        for m in _ENSURE.finditer(text):
            for q in _QUOTED.finditer(m.group(1)):
                out.append((base, q.group(1) if q.group(1) is not None else q.group(2)))
        for m in _ENV.finditer(text):
            for q in _QUOTED.finditer(m.group(1)):
                out.extend((base, e) for e in _split(q.group(1) if q.group(1) is not None else q.group(2)))
    return out


def _fls_paths(main_dir: str, main_name: str, rcs: list[tuple[str, str]]) -> list[str]:
    """Where the last build's record of its inputs may be: beside the main file, or in the
    output folder a latexmkrc names ($out_dir, $aux_dir, relative to the rc's folder)."""
    stem = os.path.splitext(main_name)[0] + ".fls"
    out = [os.path.join(main_dir, stem)]
    for base, text in rcs:
        for m in _OUT_DIR.finditer(text):
            out.append(os.path.normpath(os.path.join(base, m.group(1), stem)))
    return out


def _fls_text(main_dir: str, main_name: str | None, rcs) -> str | None:
    """The text of the last build's .fls record (the first of _fls_paths that can be read, at
    most 4 MB), or None."""
    if not main_name:
        return None
    for path in _fls_paths(main_dir, main_name, list(rcs)):
        try:
            if os.path.getsize(path) > 4_000_000:
                continue
            with open(path, encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            continue
    return None


def _fls_entries(main_dir: str, main_name: str | None, rcs: list[tuple[str, str]] = ()) -> list[str]:
    """Folders other than the main file's that the last build read inputs from, by its own
    record (`<main>.fls`, written by `latexmk` and `pdflatex -recorder`): the build found them
    through a search path figlint cannot see (TEXINPUTS set in the author's shell or build
    script). Each such file's folder and, outside the main file's folder, the folders above
    it up to the one it shares with the main file."""
    text = _fls_text(main_dir, main_name, rcs)
    if text is None:
        return []
    pwd = main_dir
    m = re.search(r"(?m)^PWD (.+)$", text)
    if m and os.path.isdir(m.group(1).strip()):
        pwd = m.group(1).strip()
    here = os.path.normpath(main_dir)
    out: list[str] = []
    for m in re.finditer(r"(?m)^INPUT (.+)$", text):
        name = m.group(1).strip()
        if os.path.isabs(name) and not is_inside(os.path.normpath(name), os.path.dirname(here)):
            continue  # the TeX distribution's own files
        f = os.path.normpath(os.path.join(pwd, name))
        d = os.path.dirname(f)
        if is_inside(f, here):
            # a folder below the main file's that a name without it was found in
            # (`\includegraphics{plot}` read from figures/plot.png through TEXINPUTS)
            if d != here and d not in out:
                out.append(d)
        else:
            top = os.path.commonpath([d, here])
            while is_inside(d, top) and d not in out:
                out.append(d)
                if d == top:
                    break
                d = os.path.dirname(d)
        if len(out) >= MAX_DIRS:
            break
    return out


# Files templates \input from the TeX distribution itself, by name: pdfTeX's glyph-to-Unicode
# tables (`\input{glyphtounicode}` with \pdfgentounicode=1 in AAAI, IEEE and thesis templates),
# plain TeX's epsf, XY-pic's loader. Never the paper's to ship; a build reads them from TeX Live.
DISTRIBUTION_INPUTS = frozenset({"glyphtounicode", "glyphtounicode-cmr", "glyphtounicode-ntx", "epsf", "xy"})


def distribution_inputs(main_dir: str, main_name: str | None, project: str | None) -> set[str]:
    """Names (with and without .tex) of files the last build read from outside the project, by
    its .fls record (the TeX distribution's own files), plus DISTRIBUTION_INPUTS."""
    out = set(DISTRIBUTION_INPUTS) | {n + ".tex" for n in DISTRIBUTION_INPUTS}
    text = _fls_text(main_dir, main_name, _rc_files(main_dir, project) if project else [])
    if text is None:
        return out
    root = os.path.abspath(project or main_dir)
    for m in re.finditer(r"(?m)^INPUT (.+\.tex)$", text):
        name = m.group(1).strip()
        if os.path.isabs(name) and not is_inside(os.path.normpath(name), root):
            base = os.path.basename(name)
            out |= {base, base[:-4]}
    return out


def _below(folder: str, limit: int) -> list[str]:
    """The folder and the folders under it, breadth first, hidden ones left out, at most `limit`."""
    out, queue = [], [folder]
    while queue and len(out) < limit:
        d = queue.pop(0)
        out.append(d)
        try:
            subs = sorted(e.path for e in os.scandir(d) if e.is_dir(follow_symlinks=False)
                          and not e.name.startswith("."))
        except OSError:
            continue
        queue.extend(subs)
    return out


def texinputs_dirs(main_dir: str, project: str | None, environ: dict | None = None,
                   main_name: str | None = None) -> list[str]:
    """Absolute folders the build searches after the main file's folder, in order; only those
    inside `project` (none without a project). A trailing ``//`` searches the folders below
    too, as kpathsea does (at most MAX_WALK of them). Besides TEXINPUTS (environment, relative
    to the main file's folder; latexmkrc files beside it or above it in the project, relative
    to their own folder), the folders the last build read from (its .fls record)."""
    if project is None:
        return []
    env = os.environ if environ is None else environ
    rcs = _rc_files(main_dir, project)
    entries = [(main_dir, e) for e in _split(env.get("TEXINPUTS", ""))] + _rc_entries(rcs) \
        + [(main_dir, e) for e in _fls_entries(main_dir, main_name, rcs)]
    out: list[str] = []
    proj = os.path.abspath(project)
    real_proj, here = os.path.realpath(proj), os.path.normpath(main_dir)
    walked = 0
    for base, e in entries:
        e = e.strip()
        if not e or e == "/" or "$" in e or "~" in e:
            continue  # the default path, the system root, or variables: nothing of the project
        tree = e.endswith("//") or e.endswith(os.sep * 2)
        e = e.rstrip("/" + os.sep) or "."
        d = os.path.normpath(e if os.path.isabs(e) else os.path.join(base, e))
        if not (is_inside(d, proj) and is_inside(os.path.realpath(d), real_proj) and os.path.isdir(d)):
            continue
        found = [d]
        if tree and walked < MAX_WALK:
            found = _below(d, MAX_WALK - walked)
            walked += len(found)
        for f in found:
            if f not in out and f != here and is_inside(os.path.realpath(f), real_proj):
                out.append(f)
        if len(out) >= MAX_DIRS + MAX_WALK:
            break
    return out


def common_tree(tree: str, dirs: list[str]) -> str:
    """The smallest folder holding the paper's tree and every search folder."""
    if not dirs:
        return tree
    return os.path.commonpath([tree, *dirs])


def found_above(name_candidates: list[str], main_dir: str, project: str | None) -> str | None:
    """The first folder above the main file's, up to the project root, that holds one of the
    names: where a TEXINPUTS build would find an include figlint did not."""
    if project is None:
        return None
    proj = os.path.normpath(os.path.abspath(project))
    d = os.path.normpath(main_dir)
    while d != proj and is_inside(d, proj):
        d = os.path.dirname(d)
        for nm in name_candidates:
            cand = os.path.normpath(os.path.join(d, nm))
            if os.path.isfile(cand):
                return cand
    return None


# \def\PATH{.}  \newcommand{\figdir}{figures}  \newcommand*\x{y}  \renewcommand / \providecommand
_DEF = re.compile(r"\\[gex]?def\s*\\([A-Za-z@]+)\s*\{([^{}\\#%]*)\}"
                  r"|\\(?:re)?(?:new|provide)command\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?\s*\{([^{}\\#%]*)\}")
_MACRO = re.compile(r"\\([A-Za-z@]+)\s?")


class PathMacros:
    """Text macros defined so far in the flattened paper, read incrementally."""

    def __init__(self) -> None:
        self.defs: dict[str, str] = {}
        self._seen = 0  # chunks scanned

    def update(self, chunks: list[str]) -> None:
        for text in chunks[self._seen:]:
            if "def" in text or "command" in text:
                for m in _DEF.finditer(text):
                    name = m.group(1) or m.group(3)
                    body = m.group(2) if m.group(1) else m.group(4)
                    self.defs[name] = body.strip()
        self._seen = len(chunks)

    def expand(self, s: str) -> str:
        """`s` with known text macros replaced (a few rounds); unknown ones stay."""
        for _ in range(4):
            if "\\" not in s:
                break
            s2 = _MACRO.sub(lambda m: self.defs.get(m.group(1), m.group(0)), s)
            if s2 == s:
                break
            s = s2
        return s
