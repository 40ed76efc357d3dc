"""LaTeX sources -> one flattened document text with a map back to file:line:column.

Finds the root file of a paper (a file given directly, `%!TEX root` magic
comments, or the one file in a directory with `\\documentclass` and
`\\begin{document}`), then reads it the way TeX would: comments, `\\iffalse`
blocks, `comment` environments and verbatim bodies are dropped; `\\input`,
`\\include`, `\\subfile`, `\\import` and friends are spliced in place; nothing
after `\\end{document}` is read. Every character of the flattened text keeps
its origin, so later stages can report real source positions. Trouble with
one file (outside the tree, cyclic, missing, undecodable, unbalanced braces)
becomes a Problem and the rest of the paper is still read.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field

from figlint.cache import project_root
from figlint.errors import InputError
from figlint.ingest.searchpath import (PathMacros, common_tree, distribution_inputs, found_above, is_inside,
                                      texinputs_dirs)
from figlint.model import Location, Problem

# Environments whose body TeX does not tokenise: the body is dropped, the
# \begin/\end pair is kept (so a listing inside a figure still parses). alltt keeps \, { and }
# (knitr's highlighted R code: \hlstd{fig3A}) but makes % and the rest ordinary: code, not text.
VERBATIM_ENVS = {
    "verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "LVerbatim",
    "lstlisting", "minted", "spverbatim", "alltt", "alltt*", "verbatimtab", "pycode",
    "luacode", "luacode*", "tcblisting", "sagesilent", "sageblock", "pyverbatim",
}
# Environments that are not typeset at all: dropped with their \begin/\end.
DROP_ENVS = {"comment", "filecontents", "filecontents*"}
# Files pulled in by \input that are pictures, not LaTeX to read: the command
# stays in the text and the figure parser records it as graphics.
GRAPHIC_INPUT_EXTS = (".pgf", ".tikz", ".pdf_tex", ".pdftex_t", ".pstex_t", ".eps_tex", ".pgf-plot")
INCLUDE_CMDS = {
    "input", "include", "subfile", "import", "subimport", "inputfrom", "subinputfrom",
    "includefrom", "subincludefrom", "InputIfFileExists",
}
# etoolbox/ifthen tests take braced arguments and need no \fi: they must not
# be counted when matching \iffalse ... \fi.
_NOT_PRIMITIVE_IFS = {
    "ifthenelse", "iftoggle", "ifbool", "ifdef", "ifndef", "ifdefempty", "ifdefvoid",
    "ifdefequal", "ifdefstring", "ifdefstrequal", "ifcsdef", "ifcsundef", "ifundef",
    "ifstrequal", "ifstrempty", "ifblank", "ifnumcomp", "ifnumequal", "ifnumgreater",
    "ifnumless", "ifnumodd", "ifdimcomp", "ifdimequal", "ifdimgreater", "ifdimless",
    "ifboolexpr", "ifboolexpe", "ifcsstring", "ifcsempty", "ifcsvoid", "ifdefmacro",
    "ifdefparam", "ifdefprefix", "ifdefprotected", "ifdefltxprotect", "ifdefcounter",
    "ifdeflength", "ifdefdimen", "ifltxcounter", "ifcsmacro", "iffieldundef",
    "ifentrytype", "ifpackageloaded", "ifclassloaded", "ifpackagelater",
    "ifclasslater", "ifpackagewith", "ifclasswith", "iffileexists", "ifinlist",
    "ifdefined@", "ifnameundef", "ifcsname@", "ifstrequal@", "ifhyperref",
}
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 40
# Includes are expanded in place, so a file that \input's the next one twice, 25 deep, is
# 2**25 copies: not a cycle, not too deep, but it would never finish. Cap the expansions
# and the flattened text (FL004 names where following stopped).
MAX_INCLUDES = 2000
MAX_TOTAL_CHARS = 2 * MAX_FILE_BYTES

_SCAN = re.compile(r"%|\\([A-Za-z@]+|.)", re.S)
_BEGIN_ARG = re.compile(r"\s*\{([^{}]*)\}")
_MAGIC_ROOT = re.compile(r"^\s*%\s*!\s*tex\s+root\s*=\s*(.+?)\s*$", re.I | re.M)
_DOCCLASS = re.compile(r"^[^%\n]*\\documentclass\s*(\[[^\]]*\])?\s*\{([^}]*)\}", re.M)
_BEGIN_DOC = re.compile(r"^[^%\n]*\\begin\s*\{document\}", re.M)
_BLANK = re.compile(r"\n[ \t]*\n")


@dataclass
class SourceFile:
    path: str  # absolute
    rel: str  # relative to the paper root, with forward slashes
    text: str
    encoding: str = "utf-8"
    line_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.line_starts:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self.line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1


@dataclass
class Document:
    """The flattened paper: `text` plus where each character came from."""

    root: str  # absolute paper root (the tree nothing may leave)
    main: SourceFile
    text: str = ""
    files: list[SourceFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    body_start: int = 0  # first character after \begin{document} (0 if none)
    has_document_env: bool = False
    base_dir: str = ""  # TeX's working directory: the main file's folder
    search_dirs: list[str] = field(default_factory=list)  # the build's TEXINPUTS folders, searched after it
    # piece table: parallel lists, sorted by output start
    _out: list[int] = field(default_factory=list)
    _file: list[int] = field(default_factory=list)
    _off: list[int] = field(default_factory=list)
    _len: list[int] = field(default_factory=list)
    # (output position, base dir) for \import'ed regions: graphics resolve there
    import_dirs: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def sources(self) -> list[str]:
        return [f.rel for f in self.files]

    def origin(self, pos: int) -> tuple[SourceFile, int]:
        """The file and character offset in it that produced output position `pos`."""
        if not self._out:
            return self.main, 0
        k = bisect.bisect_right(self._out, pos) - 1
        if k < 0:
            k = 0
        delta = pos - self._out[k]
        length = self._len[k]
        if length and delta >= length:
            delta = length - 1 if length > 0 else 0
        if length == 0:
            delta = 0
        return self.files[self._file[k]], self._off[k] + delta

    def locate(self, pos: int) -> Location:
        f, off = self.origin(pos)
        line, col = f.line_col(off)
        return Location(file=f.rel, line=line, column=col)

    def dir_at(self, pos: int) -> str:
        """The directory graphics and inputs resolve against at `pos`."""
        best, size = self.base_dir, None
        for start, end, d in self.import_dirs:
            if start <= pos < end and (size is None or end - start <= size):
                best, size = d, end - start
        return best


def _rel(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def decode_bytes(data: bytes) -> tuple[str, str]:
    try:
        text, enc = data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        text, enc = data.decode("latin-1"), "latin-1"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, enc


# ---------------------------------------------------------------- discovery

def _looks_like_root(text: str) -> bool:
    m = _DOCCLASS.search(text)
    if not m:
        return False
    if m.group(2).strip() in ("subfiles", "standalone"):
        return False
    return bool(_BEGIN_DOC.search(text))


def _magic_root(text: str, here: str) -> str | None:
    head = "\n".join(text.split("\n", 30)[:30])
    m = _MAGIC_ROOT.search(head)
    if not m:
        return None
    target = m.group(1).strip().strip('"')
    return os.path.normpath(os.path.join(os.path.dirname(here), target))


def _read_head(path: str, limit: int = 400_000) -> str:
    with open(path, "rb") as fh:
        data = fh.read(limit)
    return decode_bytes(data)[0]


_USUAL_MAIN = ("main.tex", "paper.tex", "ms.tex", "manuscript.tex")


def _main_among(candidates: list[str], folder: str, pointed: set[str]) -> str | None:
    """The paper among several root files, when one clearly is: the one other files' `%!TEX
    root` comments name; else the only one compiled (its .pdf beside it); else the only one
    at the folder's top with the usual name of a paper's main file (main.tex beside a
    rebuttal.tex or a response letter). None when it stays ambiguous."""
    for pick in ([c for c in candidates if c in pointed],
                 [c for c in candidates if os.path.isfile(os.path.splitext(c)[0] + ".pdf")],
                 [c for c in candidates if os.path.dirname(c) == folder and os.path.basename(c).lower() in _USUAL_MAIN]):
        if len(pick) == 1:
            return pick[0]
    return None


def find_root(path: str, root: str | None = None) -> tuple[str, str]:
    """(main file, paper root) for a file or directory; InputError when there is none or several."""
    path = os.path.abspath(path)
    if os.path.isdir(path):
        tree = os.path.abspath(root) if root else path
        candidates: list[str] = []
        magic: dict[str, str] = {}
        skip_dirs = {".git", "node_modules", "__pycache__", ".venv", "venv", "build", "_minted"}
        for dirpath, dirnames, filenames in os.walk(path):
            depth = os.path.relpath(dirpath, path).count(os.sep)
            dirnames[:] = sorted(d for d in dirnames if d not in skip_dirs and not d.startswith("."))
            if depth >= 4:
                dirnames[:] = []
            for name in sorted(filenames):
                if not name.endswith(".tex"):
                    continue
                full = os.path.join(dirpath, name)
                try:
                    head = _read_head(full)
                except OSError:
                    continue
                target = _magic_root(head, full)
                if target and os.path.normpath(target) != full:
                    magic[full] = target
                    continue
                if _looks_like_root(head):
                    candidates.append(full)
        if not candidates:
            targets = {t for t in magic.values() if os.path.isfile(t) and is_inside(t, tree)}
            if len(targets) == 1:
                return targets.pop(), tree
            raise InputError(f"no LaTeX root file (with \\documentclass and \\begin{{document}}) in {path}")
        if len(candidates) > 1:
            # a root that another root \input's is not a root
            pointed = set(magic.values())
            main = _main_among(candidates, path, pointed)
            if main is not None:
                return main, tree
            names = ", ".join(_rel(c, path) for c in candidates)
            raise InputError(f"several LaTeX root files in {path}: {names}; pass the main file instead")
        return candidates[0], tree
    if not os.path.isfile(path):
        raise InputError(f"no such file or directory: {path}")
    try:
        head = _read_head(path)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    tree = os.path.abspath(root) if root else os.path.dirname(path)
    if not is_inside(path, tree):
        raise InputError(f"{path} is outside the paper root {tree}")
    target = _magic_root(head, path)
    if target and target != path and target.endswith(".tex") and os.path.isfile(target):
        if root and is_inside(target, tree):
            return target, tree
        # without an explicit root the tree becomes the main file's folder, which
        # must contain the file we were given (a magic comment cannot lead outside)
        if not root and is_inside(path, os.path.dirname(target)):
            return target, os.path.dirname(target)
    return path, tree


# ---------------------------------------------------------------- arguments

_CMD = re.compile(r"\\([A-Za-z@]+)(\*?)|\\(.)", re.S)
_BRACES = re.compile(r"\\.|[{}]", re.S)
_BRACKET = re.compile(r"\\.|[{}\[\]]", re.S)


def match_brace(t: str, i: int, end: int | None = None) -> int:
    """Index just after the '}' matching the '{' at i (len(t) if unbalanced).

    With `end`, the search stops there (and returns len(t) past it): callers that reject
    long arguments anyway must not scan a megabyte line once per unclosed brace."""
    depth = 0
    for m in _BRACES.finditer(t, i, len(t) if end is None else end):
        c = m.group(0)
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    return len(t)


def _skip_space(t: str, i: int, newline_ok: bool = True) -> int:
    n = len(t)
    nl = 0
    while i < n and t[i] in " \t\n":
        if t[i] == "\n":
            nl += 1
            if nl > 1 or not newline_ok:
                break
        i += 1
    return i


def read_arg(t: str, i: int, kind: str, limit: int | None = None) -> tuple[int, int, int] | None:
    """One argument at i: (content start, content end, end) or None if absent.

    `limit` bounds the search for a closing brace (see match_brace)."""
    n = len(t)
    if kind == "*":
        j = _skip_space(t, i, newline_ok=False)
        if j < n and t[j] == "*":
            return j, j + 1, j + 1
        return None
    j = _skip_space(t, i)
    if j >= n:
        return None
    if kind == "[":
        if t[j] != "[":
            return None
        depth = 0
        for m in _BRACKET.finditer(t, j + 1):
            c = m.group(0)
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c == "]" and depth <= 0:
                return j + 1, m.start(), m.end()
            elif c == "[":
                pass
        return None
    c = t[j]
    if c == "{":
        e = match_brace(t, j, limit)
        return j + 1, max(j + 1, e - 1), e
    if c == "}":
        return None
    if c == "\\":
        m = _CMD.match(t, j)
        if m:
            return j, m.end(), m.end()
    return j, j + 1, j + 1


def read_args(t: str, i: int, spec: str) -> tuple[list[tuple[int, int] | None], int]:
    out: list[tuple[int, int] | None] = []
    end = i
    for kind in spec:
        r = read_arg(t, end, kind)
        if r is None:
            out.append(None)
            if kind == "{":
                break
            continue
        out.append((r[0], r[1]))
        end = r[2]
    while len(out) < len(spec):
        out.append(None)
    return out, end



# ---------------------------------------------------------------- reading

@dataclass
class _Op:
    kind: str  # "keep", "verb", "include", "synth", "docbegin", "docend"
    start: int = 0
    end: int = 0
    info: dict | None = None


_EXCLUDECOMMENT = re.compile(r"^[^%\n]*\\excludecomment\s*\{([^{}]+)\}", re.M)


# Verbatim environments a paper declares: listings' \lstnewenvironment, fancyvrb's
# \DefineVerbatimEnvironment (and Custom/Recustom), tcolorbox's \newtcblisting/\NewTCBListing,
# minted's \newminted{lang} (environment `langcode`, or the name given in brackets).
_VERB_DECL = re.compile(r"^[^%\n]*?\\(?:lstnewenvironment|(?:Define|Custom|Recustom)VerbatimEnvironment|newtcblisting"
                        r"|(?:New|Renew|Provide|Declare)TCBListing)\s*\*?\s*(?:\[[^\]]*\]\s*)?\{([^{}]+)\}", re.M)
# fancyvrb's documented wrapper: \newenvironment{code}{\VerbatimEnvironment\begin{minted}{haskell}}{...}
_WRAPPED_VERB_DECL = re.compile(r"^[^%\n]*?\\(?:re)?newenvironment\s*\*?\s*\{([^{}]+)\}\s*(?:\[[^\]]*\]\s*)*"
                                r"\{[^{}]{0,80}?\\VerbatimEnvironment(?![A-Za-z])", re.M)
_MINTED_DECL = re.compile(r"^[^%\n]*?\\newminted\s*(?:\[([^\]]+)\]\s*)?\{([^{}]+)\}", re.M)
_USEPACKAGE = re.compile(r"^[^%\n]*?\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\]\s*)?\{([^{}]+)\}", re.M)
_DOCUMENTCLASS = re.compile(r"^[^%\n]*?\\documentclass\s*(?:\[[^\]]*\]\s*)?\{([^{}]+)\}", re.M)
# Verbatim environments of packages and classes a paper loads from the TeX distribution (or
# from R's, for Sweave) rather than ships, so that their declarations are not there to read:
# code in \begin{python} of pythonhighlight is code, whether or not the .sty is beside the paper.
DISTRIBUTED_VERBATIM = {
    "pythonhighlight": {"python"},
    "jss": {"Code", "CodeInput", "CodeOutput"},  # the Journal of Statistical Software's class
    "Sweave": {"Sinput", "Soutput", "Scode"},
    "moreverb": {"listing", "listing*", "listingcont", "listingcont*", "verbatimwrite", "boxedverbatim",
                 "boxedverbatim*", "verbatimtab"},
    "verbatimbox": {"verbbox", "myverbbox", "verbnobox", "origverbbox"},
    "gnuplottex": {"gnuplot"},
    "asymptote": {"asy", "asydef"},
    "piton": {"Piton"},
    "pythontex": {"pycode", "pyblock", "pyverbatim", "pyconsole", "sympycode", "sympyblock", "pylabcode",
                  "pylabblock"},
    "sagetex": {"sageblock", "sagesilent", "sageverbatim", "sageexample", "sagecommandline"},
}


def declared_verbatim(text: str) -> set[str]:
    """Environments `text` declares verbatim (their bodies are code, not LaTeX to read), and
    those of the distributed packages and classes it loads (DISTRIBUTED_VERBATIM)."""
    out = {m.group(1).strip() for m in _VERB_DECL.finditer(text)}
    for m in (*_USEPACKAGE.finditer(text), *_DOCUMENTCLASS.finditer(text)):
        for name in m.group(1).split(","):
            out |= DISTRIBUTED_VERBATIM.get(name.strip(), set())
    out |= {(m.group(1) or m.group(2) + "code").strip() for m in _MINTED_DECL.finditer(text)}
    out |= {m.group(1).strip() for m in _WRAPPED_VERB_DECL.finditer(text)}
    return out


def shipped_file(name: str, dirs: list[str], root: str) -> str | None:
    """The file a package or class name resolves to as the build finds it: the first dirs/name
    that exists (the folder of the file that loads it, then the build's search path); None when
    there is none or when that one lies outside `root` (its real path too): never read."""
    for d in dirs:
        path = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(path):
            inside = is_inside(path, root) and is_inside(os.path.realpath(path), os.path.realpath(root))
            return path if inside else None
    return None


def local_package_texts(text: str, dirs: list[str], tree: str) -> list[str]:
    """The text of each package `text` loads that the paper ships (name.sty in one of `dirs`,
    inside `tree`), read as text (never run): where its own environments are declared."""
    out = []
    for m in _USEPACKAGE.finditer(text):
        for name in m.group(1).split(","):
            name = name.strip()
            if not name or "/" in name or "\\" in name:
                continue
            path = shipped_file(name + ".sty", dirs, tree)
            try:
                if path is not None and os.path.getsize(path) <= 1_000_000:
                    with open(path, "rb") as fh:
                        out.append(decode_bytes(fh.read())[0])
            except OSError:
                pass
    return out


def excluded_envs(text: str) -> set[str]:
    """Environments switched off with the comment package's \\excludecomment{name}."""
    return {name.strip() for name in _EXCLUDECOMMENT.findall(text)}


_LET_BEFORE = re.compile(r"\\let\s*(?:\\[A-Za-z@]+\s*=?\s*)?$")


def _let_operand(text: str, i: int) -> bool:
    """Whether the conditional at i is named by \\let, not run: `\\let\\ifdraft\\iffalse`
    (a class's switch set off) opens no conditional, and neither name is one to match a \\fi."""
    return _LET_BEFORE.search(text, max(0, i - 80), i) is not None


def _in_group(text: str, i: int) -> bool:
    """Whether position `i` lies inside braces: a definition's body in the preamble
    (`\\newcommand{\\doc}[1]{\\begin{document}#1\\end{document}}` starts no document; TeX
    begins the document only where \\begin{document} runs at the outer level). Braces are
    counted from the file's start, escaped ones and comments left out. Only asked at the
    document's boundaries, so a file is counted at most a few times."""
    depth = 0
    k = 0
    for m in _BRACES.finditer(text, 0, i):
        tok = m.group(0)
        if m.start() < k:
            continue
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(depth - 1, 0)  # a stray closing brace does not open the next group
        elif tok == "%":
            e = text.find("\n", m.start())
            k = i if e < 0 else e
    return depth > 0


_BRACES = re.compile(r"\\.|[{}%]", re.S)


# `\catcode`\%=12` (also `\%`, 37, "25, '45): the category code the percent sign gets
# Any category but 14 ends its comments: 11 or 12, 13 (\active: matplotlib's PGF backend writes
# \catcode`\%=\active into its labels), a name a \chardef gave the value (\other); and
# \@makeother\% (group 2)
_PERCENT_CATCODE = re.compile(r"""\\(?:catcode\s*(?:`\\?%|37\b|"25\b|'45\b)\s*=?\s*(\d+|\\[A-Za-z@]+)|@makeother\s*\\%())""")
_GROUP_TOKENS = re.compile(_PERCENT_CATCODE.pattern + r"|\\(?:begin|end)group\b|\\.|[{}]", re.S)


def _not_a_comment(m: re.Match) -> bool:
    """The assignment `m` (a _PERCENT_CATCODE match) leaves % something other than a comment
    character: any category but 14 (a name such as \\active or \\other counts as one: classes
    set % back to comments by number)."""
    return m.group(2) is not None or m.group(1) != "14"


def _percent_ordinary_until(text: str, m: re.Match) -> int:
    """Where the percent sign stops being ordinary after `m`, an assignment that makes it so
    (any category but 14: a file name or URL with a %, a macro that prints one): where the
    group the assignment sits in closes (`}` or `\\endgroup`: the assignment is local), or at
    the next assignment in that same group that gives it another category
    (`\\catcode`\\%=14` restores comments); assignments inside inner groups end with them.
    The end of the text when neither comes."""
    depth = 0
    for g in _GROUP_TOKENS.finditer(text, m.end()):
        tok = g.group(0)
        if g.group(1) is not None or g.group(2) is not None:
            if depth == 0 and not _not_a_comment(g):
                return g.start()
        elif tok == "{" or tok.startswith("\\begingroup"):
            depth += 1
        elif tok == "}" or tok.startswith("\\endgroup"):
            if depth == 0:
                return g.start()
            depth -= 1
    return len(text)


def _scan_file(text: str, subfile: bool, drop_envs: set[str] | frozenset = frozenset(),
               verbatim_envs: set[str] | frozenset = frozenset(),
               flags: dict[str, bool] | None = None) -> tuple[list[_Op], list[tuple[int, str]]]:
    """Comments, verbatim, \\iffalse, includes, document boundaries -> ops on `text`.
    `flags`: \\newif switches the main file sets one way only (document_flags): their
    conditionals read as that branch."""
    ops: list[_Op] = []
    issues: list[tuple[int, str]] = []
    n = len(text)
    seg = 0  # start of the current kept run
    pos = 0
    drop_fi: set[int] = set()
    skip_else: dict[int, int] = {}  # a true switch's \\else -> the end of its \\fi: not read
    flags = flags or {}
    in_body = not subfile  # for subfiles only the body counts
    begun = False  # \begin{document} met
    plain_percent = 0  # up to here '%' is an ordinary character (its \catcode changed)

    def keep(a: int, b: int) -> None:
        if b > a and in_body:
            ops.append(_Op("keep", a, b))

    while True:
        m = _SCAN.search(text, pos)
        if not m:
            break
        i = m.start()
        tok = m.group(0)
        if tok == "%" and i < plain_percent:
            pos = i + 1
            continue
        if tok == "%":
            j = text.find("\n", i)
            j = n if j < 0 else j
            line_start = text.rfind("\n", 0, i) + 1
            if text[max(line_start, seg):i].strip() == "" and line_start >= seg:
                keep(seg, line_start)
                seg = min(j + 1, n)
            else:
                keep(seg, i)
                seg = j
            pos = j + 1 if j < n else n
            if pos >= n:
                break
            continue
        name = m.group(1)
        if name in ("catcode", "@makeother"):
            # where % is already ordinary, its region's end already counts the assignments of
            # its own group, and one in an inner group ends before it: nothing to compute (the
            # regions are scanned once each, so the reading stays linear in the text)
            pc = _PERCENT_CATCODE.match(text, i)
            if pc and _not_a_comment(pc) and i >= plain_percent:
                plain_percent = _percent_ordinary_until(text, pc)
            pos = pc.end() if pc else m.end()
            continue
        if name in ("verb", "lstinline"):
            k = m.end()
            if k < n and text[k] == "*":
                k += 1
            if name == "lstinline" and k < n and text[k] == "[":
                close = text.find("]", k)
                k = close + 1 if close > 0 else k
            if k < n and text[k] not in " \n{":
                delim = text[k]
                close = text.find(delim, k + 1)
                eol = text.find("\n", k + 1)
                if close > 0 and (eol < 0 or close < eol):
                    keep(seg, k + 1)
                    if in_body and close > k + 1:
                        ops.append(_Op("verb", k + 1, close))
                    seg = close
                    pos = close + 1
                    continue
            pos = m.end()
            continue
        if name in ("url", "href", "nolinkurl", "path"):
            # the argument is read verbatim: a '%' in a URL is not a comment
            k = m.end()
            while k < n and text[k] in " \t":
                k += 1
            if k < n and text[k] == "{":
                close = text.find("}", k)
                eol = text.find("\n", k)
                if close > 0 and (eol < 0 or close < eol):
                    pos = close + 1
                    continue
            pos = m.end()
            continue
        if name == "begin":
            ba = _BEGIN_ARG.match(text, m.end())
            if ba:
                env = ba.group(1).strip()
                if env == "document" and _in_group(text, i):
                    pos = ba.end()  # inside a definition's braces: run only where the macro is used
                    continue
                if env == "document":
                    begun = True
                    if subfile:
                        seg = ba.end()
                        in_body = True
                        ops.append(_Op("docbegin", ba.end(), ba.end()))
                    else:
                        keep(seg, ba.end())
                        ops.append(_Op("docbegin", ba.end(), ba.end()))
                        seg = ba.end()
                    pos = ba.end()
                    continue
                if env in DROP_ENVS or env in VERBATIM_ENVS or env in drop_envs or env in verbatim_envs:
                    endm = re.compile(r"\\end\s*\{" + re.escape(env) + r"\}").search(text, ba.end())
                    if env in DROP_ENVS or env in drop_envs:
                        keep(seg, i)
                        if endm:
                            seg = pos = endm.end()
                        else:
                            issues.append((i, f"\\begin{{{env}}} is never closed; the rest of the file is skipped"))
                            seg = pos = n
                    else:
                        keep(seg, ba.end())
                        if endm:
                            seg = endm.start()
                            pos = endm.end()
                        else:
                            issues.append((i, f"\\begin{{{env}}} is never closed; the rest of the file is skipped"))
                            seg = pos = n
                    continue
            pos = m.end()
            continue
        if name == "end":
            ba = _BEGIN_ARG.match(text, m.end())
            # inside a preamble definition's braces it ends nothing; once the document has begun
            # it ends it even inside a group (TeX stops there, warning of the open group)
            if ba and ba.group(1).strip() == "document" and (begun or not _in_group(text, i)):
                if subfile:
                    keep(seg, i)
                else:
                    keep(seg, ba.end())
                ops.append(_Op("docend", ba.end(), ba.end()))
                return ops, issues
            pos = m.end()
            continue
        if i in skip_else and name == "else":
            keep(seg, i)
            seg = pos = skip_else.pop(i)
            continue
        switch = flags.get(name[2:]) if name.startswith("if") and len(name) > 2 and flags else None
        if switch is not None and (_let_operand(text, i) or text[max(0, i - 12):i].rstrip().endswith("\\newif")):
            switch = None  # \\newif\\ifX declares the switch, \\let\\ifX names it: neither tests it
        if switch is True:
            # the branch a document's own switch takes: its \\else part and the \\fi are not read
            else_at, fi_at = _branch_ends(text, m.end())
            if fi_at is not None:
                keep(seg, i)
                seg = pos = m.end()
                if else_at is not None:
                    skip_else[else_at.start()] = fi_at.end()
                else:
                    drop_fi.add(fi_at.start())
                continue
        if (name == "iffalse" or (name == "if" and _if_false(text, m.end())) or switch is False) \
                and not _let_operand(text, i):
            # the matching \else / \fi, nested conditionals counted
            else_at, fi_at = _branch_ends(text, m.end())
            keep(seg, i)
            if fi_at is None:
                issues.append((i, f"\\{'iffalse' if name == 'if' else name} without a matching \\fi; the rest of the file is skipped"))
                seg = pos = n
                continue
            if else_at is not None:
                seg = pos = else_at.end()
                drop_fi.add(fi_at.start())
            else:
                seg = pos = fi_at.end()
            continue
        if name == "endinput" and not _let_operand(text, i) and not _in_group(text, i):
            # TeX finishes the current line, then stops reading this file. Named by \let or
            # inside braces (a definition's body: a "pragma once" guard that lets a file's
            # name mean \endinput) it is not run where it stands.
            j = text.find("\n", m.end())
            j = n if j < 0 else j
            keep(seg, i)
            if j > m.end():
                keep(m.end(), j)
            seg = pos = n
            break
        if name == "fi" and i in drop_fi:
            keep(seg, i)
            seg = pos = m.end()
            continue
        if name in INCLUDE_CMDS:
            inc = _parse_include(text, name, m.end())
            if inc is not None:
                end, info = inc
                info["cmd"] = name
                info["pos"] = i
                keep(seg, i)
                ops.append(_Op("include", i, end, info))
                seg = pos = end
                continue
        pos = m.end()
    if in_body:
        keep(seg, n)
    return ops, issues


def _branch_ends(text: str, q: int) -> tuple[re.Match | None, re.Match | None]:
    """(\\else, \\fi) of the conditional opened just before q, nested ones counted."""
    depth = 0
    else_at = None
    while True:
        mm = _SCAN.search(text, q)
        if not mm:
            return else_at, None
        if mm.group(0) == "%":
            e = text.find("\n", mm.start())
            q = len(text) if e < 0 else e + 1
            continue
        nm = mm.group(1)
        q = mm.end()
        if nm.startswith("if") and nm not in _NOT_PRIMITIVE_IFS and not nm.startswith("ifthen") \
                and not _let_operand(text, mm.start()):
            depth += 1
        elif nm == "fi":
            if depth == 0:
                return else_at, mm
            depth -= 1
        elif nm == "else" and depth == 0 and else_at is None:
            else_at = mm


_SWITCH_SET = re.compile(r"\\([A-Za-z]+)(true|false)(?![A-Za-z@])")


def document_flags(text: str) -> dict[str, bool]:
    """The \\newif switches the main file sets, outside any group or definition, one way only
    (`\\synopsistrue` in a thesis template's synopsis, `\\arxivfalse`): name -> value. A switch
    set both ways, or only inside a definition or group, is left out: both its branches are
    read, as before. Comments are skipped."""
    seen: dict[str, set[bool]] = {}
    for m in _SWITCH_SET.finditer(text):
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if not _COMMENT.search(line) and not _in_group(text, m.start()) and not _let_operand(text, m.start()):
            seen.setdefault(m.group(1), set()).add(m.group(2) == "true")
    seen.pop("if", None)  # \\iftrue and \\iffalse are TeX's own tests, no switch's setting
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def _if_false(text: str, i: int) -> bool:
    """`\\if 0` + newline (or `\\if01`): TeX compares two different characters -> false."""
    m = re.compile(r"[ \t]*([0-9])([0-9]|\s)").match(text, i)
    return bool(m) and m.group(1) != m.group(2)


def _parse_include(text: str, name: str, i: int) -> tuple[int, dict] | None:
    star = False
    if text.startswith("*", i):
        star = True
        i += 1

    def group(k: int) -> tuple[str, int] | None:
        r = read_arg(text, k, "{", limit=k + 2010)  # a path argument is never this long
        if r is None or r[2] - k > 2000 or text[r[0] - 1:r[0]] != "{":
            return None
        return text[r[0]:r[1]], r[2]

    if name in ("import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"):
        g1 = group(i)
        g2 = group(g1[1]) if g1 else None
        if not g2:
            return None
        return g2[1], {"dir": g1[0].strip(), "file": g2[0].strip(), "star": star}
    g = group(i)
    if g:
        info = {"file": g[0].strip()}
        if name == "InputIfFileExists":
            info["optional"] = True
        return g[1], info
    if name == "input":
        m = re.compile(r"[ \t]+([^\s{}%\\]+)").match(text, i)
        if m:
            return m.end(), {"file": m.group(1)}
    return None


def _brace_fixes(text: str, ops: list[_Op]) -> tuple[list[_Op], list[tuple[int, str]]]:
    """Check brace balance over this file's kept text; drop stray '}' and close open '{'."""
    stack: list[int] = []
    stray: list[int] = []
    pat = re.compile(r"\\.|[{}]", re.S)
    for op in ops:
        if op.kind != "keep":
            continue
        for m in pat.finditer(text, op.start, op.end):
            c = m.group(0)
            if c == "{":
                stack.append(m.start())
            elif c == "}":
                if stack:
                    stack.pop()
                else:
                    stray.append(m.start())
    if not stack and not stray:
        return ops, []
    issues: list[tuple[int, str]] = []
    for p in stray:
        issues.append((p, "unbalanced braces: '}' without a matching '{' (ignored)"))
    # close each unclosed '{' at the next blank line after it (TeX would stop
    # a runaway argument at the paragraph end too), or at the end of the file
    inserts: list[int] = []
    bm = None
    searched = False
    for p in stack:  # in increasing order
        issues.append((p, "unbalanced braces: '{' is never closed"))
        # The next blank line at or after p is the previous one's when that lies at or after p
        # (or there is none): searching again for each '{' was quadratic (a line of a million '{').
        if not searched or (bm is not None and bm.start() < p):
            bm = _BLANK.search(text, p)
            searched = True
        inserts.append(bm.start() if bm else len(text))
    # split the kept runs at the stray '}' (dropped) and the insertion points
    events: list[tuple[int, int]] = [(p, 0) for p in stray] + [(p, 1) for p in inserts]
    events.sort()
    keys = [p for p, _ in events]
    new_ops: list[_Op] = []
    used = [False] * len(events)
    for op in ops:
        if op.kind != "keep":
            new_ops.append(op)
            continue
        a = op.start
        lo = bisect.bisect_left(keys, op.start)
        hi = bisect.bisect_right(keys, op.end)
        for k in range(lo, hi):
            p, kind = events[k]
            if used[k]:
                continue
            if kind == 0 and p < op.end:  # a stray '}' in this run: drop it
                if p > a:
                    new_ops.append(_Op("keep", a, p))
                a = p + 1
                used[k] = True
            elif kind == 1:  # close an open '{' here
                if p > a:
                    new_ops.append(_Op("keep", a, p))
                    a = p
                new_ops.append(_Op("synth", p, p, {"text": "}"}))
                used[k] = True
        if op.end > a:
            new_ops.append(_Op("keep", a, op.end))
    # insertion points that fell into dropped text: close at the end
    for k, (p, kind) in enumerate(events):
        if kind == 1 and not used[k]:
            new_ops.append(_Op("synth", len(text), len(text), {"text": "}"}))
    return new_ops, issues


class _Loader:
    def __init__(self, main: str, root: str) -> None:
        self.root = os.path.abspath(root)
        self.root_real = os.path.realpath(self.root)
        self.base = os.path.dirname(os.path.abspath(main))
        self.chunks: list[str] = []
        self.out_len = 0
        self.doc: Document | None = None
        self.stopped = False
        self.includeonly: set[str] | None = None
        self.drop_envs: set[str] = set()
        self.found_drop_envs: set[str] = set()
        self.verbatim_envs: set[str] = set()  # verbatim environments the paper declares
        self.found_verbatim_envs: set[str] = set()
        self.file_index: dict[str, int] = {}
        self.expansions = 0  # includes followed so far (see MAX_INCLUDES)
        self.overflowed = False
        self.search_dirs: list[str] = []  # the build's TEXINPUTS folders (searchpath.texinputs_dirs)
        self.project: str | None = None
        self.dist_inputs: set[str] = set()  # files a build \input's from TeX Live (searchpath.distribution_inputs)
        self.macros = PathMacros()
        self.flags: dict[str, bool] = {}  # switches the main file sets one way (document_flags)

    # -- output
    def emit(self, file_idx: int, text: str, a: int, b: int) -> None:
        if b <= a:
            return
        doc = self.doc
        doc._out.append(self.out_len)
        doc._file.append(file_idx)
        doc._off.append(a)
        doc._len.append(b - a)
        self.chunks.append(text[a:b])
        self.out_len += b - a

    def emit_synth(self, file_idx: int, at: int, s: str) -> None:
        doc = self.doc
        doc._out.append(self.out_len)
        doc._file.append(file_idx)
        doc._off.append(at)
        doc._len.append(-len(s))  # negative: synthetic, maps to `at`
        self.chunks.append(s)
        self.out_len += len(s)

    def problem(self, code: str, msg: str, f: SourceFile | None, offset: int | None,
                severity: str | None = None) -> None:
        loc = Location()
        if f is not None:
            loc = Location(file=f.rel)
            if offset is not None:
                line, col = f.line_col(offset)
                loc.line, loc.column = line, col
        self.doc.problems.append(Problem(code=code, message=" ".join(msg.split()), location=loc,  # one line
                                         severity=severity))

    # -- files
    def read(self, path: str, who: SourceFile | None, at: int | None) -> SourceFile | None:
        try:
            size = os.path.getsize(path)
            if size > MAX_FILE_BYTES:
                self.problem("FL006", f"{_rel(path, self.root)} is {size // (1024 * 1024)} MB; not read", who, at)
                return None
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            self.problem("FL005", f"cannot read {_rel(path, self.root)}: {exc.strerror or exc}", who, at)
            return None
        text, enc = decode_bytes(data)
        self.found_drop_envs |= excluded_envs(text)
        self.found_verbatim_envs |= declared_verbatim(text)
        f = SourceFile(path=path, rel=_rel(path, self.root), text=text, encoding=enc)
        if enc != "utf-8":
            self.doc.problems.append(Problem(
                code="FL006",
                message=f"{f.rel} is not valid UTF-8; read as latin-1 (save it as UTF-8)",
                location=Location(file=f.rel, line=1, column=1)))
        return f

    def add_file(self, f: SourceFile) -> int:
        self.doc.files.append(f)
        return len(self.doc.files) - 1

    def resolve(self, who: SourceFile, at: int, cmd: str, info: dict, cur_base: str) -> tuple[str | None, str]:
        """(absolute path or None, the base directory for what it includes)."""
        name = info["file"]
        if "\\" in name or "\\" in info.get("dir", ""):
            # a path built from text macros (\def\PATH{.} ... \import{\PATH/ch1/}{ch1})
            self.macros.update(self.chunks)
            info = {**info, "file": self.macros.expand(name)}
            if "dir" in info:
                info["dir"] = self.macros.expand(info["dir"])
            name = info["file"]
        if not name or "#" in name or "\\" in name or "\\" in info.get("dir", ""):
            return "", cur_base  # built from macros: left in the text as written
        name = name.strip().strip('"')
        new_base = cur_base
        if cmd in ("import", "inputfrom", "includefrom"):
            d = info["dir"]
            new_base = d if os.path.isabs(d) else os.path.join(self.base, d)
            dirs = [new_base]
        elif cmd in ("subimport", "subinputfrom", "subincludefrom"):
            new_base = os.path.join(cur_base, info["dir"])
            dirs = [new_base]
        else:
            dirs = [cur_base]
            for extra in (self.base, os.path.dirname(who.path), *self.search_dirs):
                if extra not in dirs:
                    dirs.append(extra)
        if name.lower().endswith(GRAPHIC_INPUT_EXTS):
            return "", cur_base  # a picture: left in the text for the figure parser
        if cmd in ("include", "includefrom", "subincludefrom"):
            names = [name if name.endswith(".tex") else name + ".tex"]
        elif name.endswith(".tex"):
            names = [name]
        else:
            names = [name + ".tex", name]
        outside: str | None = None
        for d in dirs:
            for nm in names:
                cand = os.path.normpath(os.path.join(d, nm))
                if not is_inside(cand, self.root):
                    outside = outside or nm
                    continue
                if os.path.isfile(cand):
                    real = os.path.realpath(cand)
                    if not is_inside(real, self.root_real):
                        outside = outside or nm
                        continue
                    return cand, os.path.normpath(new_base)
        written = info.get("dir", "") + info["file"] if "dir" in info else info["file"]
        written = " ".join(written.split())  # a name broken over lines: messages stay one line
        if outside is not None:
            self.problem("FL003", f"\\{cmd}{{{written}}} points outside the paper's directory; not read", who, at)
            return None, cur_base
        if cmd == "input" and any(nm in self.dist_inputs for nm in names):
            return None, cur_base  # the TeX distribution's file (glyphtounicode): not the paper's
        if not info.get("optional"):
            above = None if cmd in ("import", "subimport", "inputfrom", "includefrom", "subinputfrom",
                                    "subincludefrom") else found_above(names, self.base, self.project)
            if above is not None:
                # the author's build finds it through TEXINPUTS: say where, as a note
                where = os.path.relpath(above, self.base).replace(os.sep, "/")
                self.problem("FL005", f"\\{cmd}{{{written}}}: not in the paper's folder; {where} above it is what a "
                             f"build with TEXINPUTS reads: set TEXINPUTS for figlint too (or in latexmkrc) to "
                             f"check it", who, at, severity="note")
            else:
                self.problem("FL005", f"\\{cmd}{{{written}}}: file not found", who, at)
        return None, cur_base

    def process(self, f: SourceFile, idx: int, base: str, stack: list[str], subfile: bool) -> None:
        ops, issues = _scan_file(f.text, subfile, self.drop_envs, self.verbatim_envs, self.flags)
        ops, brace_issues = _brace_fixes(f.text, ops)
        if len(brace_issues) > 5:
            rest = len(brace_issues) - 5
            brace_issues = brace_issues[:5]
            brace_issues[-1] = (brace_issues[-1][0], brace_issues[-1][1] + f" (and {rest} more unbalanced braces)")
        for at, msg in issues + brace_issues:
            self.problem("FL006", f"{f.rel}: {msg}", f, at)
        for op in ops:
            if self.stopped:
                return
            if op.kind in ("keep", "verb"):
                self.emit(idx, f.text, op.start, op.end)
            elif op.kind == "synth":
                self.emit_synth(idx, op.start, op.info["text"])
            elif op.kind == "docbegin":
                if not subfile and not self.doc.has_document_env:
                    self.doc.has_document_env = True
                    self.doc.body_start = self.out_len
            elif op.kind == "docend":
                if not subfile:
                    self.stopped = True
                    return
            elif op.kind == "include":
                self.include(f, idx, op, base, stack)

    def include(self, f: SourceFile, idx: int, op: _Op, base: str, stack: list[str]) -> None:
        info, cmd = op.info, op.info["cmd"]
        target, new_base = self.resolve(f, op.start, cmd, info, base)
        if target == "":
            # \input{x.pgf} stays for the figure parser; \input{\dir/x} cannot be followed
            self.emit(idx, f.text, op.start, op.end)
            return
        if target is None:
            return
        if cmd == "include" and self.includeonly is not None:
            stem = _rel(target, self.base)[:-4] if target.endswith(".tex") else _rel(target, self.base)
            if stem not in self.includeonly:
                return
        if target in stack:
            chain = " -> ".join(_rel(p, self.root) for p in stack[stack.index(target):] + [target])
            self.problem("FL004", f"include cycle: {chain}; not followed again", f, op.start)
            return
        if len(stack) >= MAX_DEPTH:
            self.problem("FL004", f"includes nested more than {MAX_DEPTH} deep at {_rel(target, self.root)}", f, op.start)
            return
        self.expansions += 1
        if self.expansions > MAX_INCLUDES or self.out_len > MAX_TOTAL_CHARS:
            if not self.overflowed:  # reported once: every later include would say the same
                self.overflowed = True
                self.problem("FL004", f"files are included over and over (more than {MAX_INCLUDES:,} includes or "
                             f"{MAX_TOTAL_CHARS // (1024 * 1024)} MB of text); includes from "
                             f"{_rel(target, self.root)} on are not followed", f, op.start)
            return
        child = self.read(target, f, op.start)
        if child is None:
            return
        cidx = self.add_file(child)
        start = self.out_len
        # a \subfile'd fragment without a preamble of its own is read whole, as the subfiles
        # package reads it (only a \documentclass starts the preamble it skips)
        self.process(child, cidx, new_base, stack + [target],
                     subfile=(cmd == "subfile" and _DOCCLASS.search(child.text) is not None))
        if new_base != base:
            self.doc.import_dirs.append((start, self.out_len, new_base))


# apacite's prenote, `\cite<see Fig.~1 of>[p. 3]{key}`: angle brackets where natbib writes a
# first optional argument. Read as `\cite[see Fig.~1 of][p. 3]{key}` (the same length, so every
# position stays), it is a citation's note, as natbib's is, not this paper's text.
_ANGLE_NOTE = re.compile(r"(\\[A-Za-z]*cite[A-Za-z]*\*?\s*)<([^<>\[\]\n]{0,300})>")


def angle_cite_notes(text: str) -> str:
    if "cite" not in text or "<" not in text:
        return text
    return _ANGLE_NOTE.sub(lambda m: f"{m.group(1)}[{m.group(2)}]", text)


def load_document(path: str, root: str | None = None) -> Document:
    """Find the root file under `path` and read the whole paper into one Document."""
    main, tree = find_root(path, root)
    project = project_root(main)
    project = str(project) if project else None
    search = texinputs_dirs(os.path.dirname(os.path.abspath(main)), project, main_name=os.path.basename(main))
    tree = common_tree(tree, search)
    try:
        with open(main, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read {main}: {exc.strerror or exc}") from exc
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{main} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    text, enc = decode_bytes(data)
    drop = excluded_envs(text)
    verbatim = declared_verbatim(text)
    for sty in local_package_texts(text, [os.path.dirname(os.path.abspath(main)), *search], tree):
        verbatim |= declared_verbatim(sty)
    for _ in range(2):  # a second pass when an \input'ed preamble switches or declares environments
        doc, loader = _load(main, tree, text, enc, drop, project, search, verbatim)
        if loader.found_drop_envs <= drop and loader.found_verbatim_envs <= verbatim:
            break
        drop = drop | loader.found_drop_envs
        verbatim = verbatim | loader.found_verbatim_envs
    doc.text = angle_cite_notes(doc.text)
    return doc


_INCLUDEONLY = re.compile(r"^[^%\n]*\\includeonly\s*\{([^}]*)\}", re.M)
_COMMENT = re.compile(r"(?<!\\)%.*")  # a line's comment: from its first unescaped %
_IF_OR_FI = re.compile(r"\\(if[a-zA-Z@]*|fi)(?![a-zA-Z@])")


def _unconditional_includeonly(text: str) -> re.Match | None:
    """The first `\\includeonly` that stands outside every conditional. One inside a
    conditional (a thesis template's `\\ifdefineChapter \\includeonly{Chapter3/chapter3} \\fi`,
    its flag set by a class option) may never run: obeying it would silently drop whole
    chapters, so figlint reads them all instead."""
    for m in _INCLUDEONLY.finditer(text):
        depth = 0
        for line in text[:m.start()].split("\n"):
            line = _COMMENT.sub("", line)
            for c in _IF_OR_FI.finditer(line):
                name = c.group(1)
                if name == "fi":
                    depth = max(0, depth - 1)
                elif line[:c.start()].rstrip().endswith(("\\newif", "\\let", "\\def")):
                    continue  # \\newif\\ifdraft declares a flag, it opens nothing
                elif name not in _NOT_PRIMITIVE_IFS and not name.startswith("ifthen"):
                    depth += 1
        if depth == 0:
            return m
    return None


def _load(main: str, tree: str, text: str, enc: str, drop: set[str], project: str | None,
          search: list[str], verbatim: set[str] = frozenset()) -> tuple[Document, _Loader]:
    loader = _Loader(main, tree)
    loader.drop_envs = set(drop)
    loader.verbatim_envs = set(verbatim)
    loader.project = project
    loader.search_dirs = search
    loader.dist_inputs = distribution_inputs(os.path.dirname(os.path.abspath(main)), os.path.basename(main), project)
    mf = SourceFile(path=main, rel=_rel(main, tree), text=text, encoding=enc)
    doc = Document(root=tree, main=mf, base_dir=loader.base, search_dirs=list(loader.search_dirs))
    loader.doc = doc
    if enc != "utf-8":
        doc.problems.append(Problem(code="FL006", message=f"{mf.rel} is not valid UTF-8; read as latin-1 (save it as UTF-8)",
                                    location=Location(file=mf.rel, line=1, column=1)))
    m = _unconditional_includeonly(text)
    if m:
        loader.includeonly = {s.strip().removesuffix(".tex") for s in m.group(1).split(",") if s.strip()}
    loader.flags = document_flags(text)
    idx = loader.add_file(mf)
    loader.process(mf, idx, loader.base, [main], subfile=False)
    doc.text = "".join(loader.chunks)
    # synthetic pieces (negative lengths) map to one point
    for k, ln in enumerate(doc._len):
        if ln < 0:
            doc._len[k] = 0
    return doc, loader
