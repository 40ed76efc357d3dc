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
_ENV = re.compile(r"""\$ENV\s*\{\s*['"]?TEXINPUTS['"]?\s*\}\s*=\s*([^;]*);""")
_QUOTED = re.compile(r"""'([^']*)'|"([^"]*)\"""")
MAX_DIRS = 20


def _split(value: str) -> list[str]:
    return value.split(";" if os.name == "nt" else ":")


def is_inside(path: str, root: str) -> bool:
    """True when `path` (already normalised) lies in the tree `root`."""
    root = os.path.normpath(root)
    path = os.path.normpath(path)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _rc_entries(main_dir: str) -> list[str]:
    out: list[str] = []
    for name in _RC_NAMES:
        path = os.path.join(main_dir, name)
        try:
            if os.path.getsize(path) > 100_000:
                continue
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        text = re.sub(r"(?m)#.*$", "", text)  # Perl comments
        for m in _ENSURE.finditer(text):
            for q in _QUOTED.finditer(m.group(1)):
                out.append(q.group(1) if q.group(1) is not None else q.group(2))
        for m in _ENV.finditer(text):
            for q in _QUOTED.finditer(m.group(1)):
                out.extend(_split(q.group(1) if q.group(1) is not None else q.group(2)))
    return out


def _fls_entries(main_dir: str, main_name: str | None) -> list[str]:
    """Folders outside the main file's folder that the last build read inputs from, by its
    own record (`<main>.fls`, written by `latexmk` and `pdflatex -recorder`): the build found
    them through a search path figlint cannot see (TEXINPUTS set in the author's shell). Each
    such file's folder and the folders above it, up to the one it shares with the main file."""
    if not main_name:
        return []
    path = os.path.join(main_dir, os.path.splitext(main_name)[0] + ".fls")
    try:
        if os.path.getsize(path) > 4_000_000:
            return []
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
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
        if is_inside(f, here):
            continue
        d = os.path.dirname(f)
        top = os.path.commonpath([d, here])
        while is_inside(d, top) and d not in out:
            out.append(d)
            if d == top:
                break
            d = os.path.dirname(d)
        if len(out) >= MAX_DIRS:
            break
    return out


def texinputs_dirs(main_dir: str, project: str | None, environ: dict | None = None,
                   main_name: str | None = None) -> list[str]:
    """Absolute folders the build searches after the main file's folder, in order; only those
    inside `project` (none without a project). A trailing ``//`` (search below) is taken as
    the folder itself: figlint does not walk trees it was not pointed at. Besides TEXINPUTS
    (environment, latexmkrc), the folders the last build read from (its .fls record)."""
    if project is None:
        return []
    env = os.environ if environ is None else environ
    entries = _split(env.get("TEXINPUTS", "")) + _rc_entries(main_dir) + _fls_entries(main_dir, main_name)
    out: list[str] = []
    proj = os.path.abspath(project)
    for e in entries:
        e = e.strip()
        if not e or e == "/" or "$" in e or "~" in e:
            continue  # the default path, the system root, or variables: nothing of the project
        e = e.rstrip("/" + os.sep)  # `dir//`: the folder itself
        d = os.path.normpath(e if os.path.isabs(e) else os.path.join(main_dir, e))
        if is_inside(d, proj) and is_inside(os.path.realpath(d), os.path.realpath(proj)) \
                and os.path.isdir(d) and d not in out and d != os.path.normpath(main_dir):
            out.append(d)
        if len(out) >= MAX_DIRS:
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
