"""Reading a class or style file's text as TeX would run it, for the layout (ingest/placement.py).

placement reads the preamble and a paper's own .cls/.sty for the commands that set the
text block (`\\textwidth`, `\\twocolumn`, `\\geometry`, the body size). Taken line by
line, a style file says more than it does: `\\twocolumn` inside a `\\def` body runs only
when that macro is used (suthesis-2e.sty's `\\@endpart`), `\\ifdraft\\else\\twocolumn\\fi`
runs on one branch only, and which one the document's options decide (ametsoc.cls sets
`draft` by default: one column, 12 pt). This module gives placement what it needs for that:

* `definition(text, i)`: where a `\\def`/`\\newcommand`-like definition's body is, so its
  commands are not taken as run;
* `option_flags(text, options)`: the `\\newif` switches after the file's option
  processing (`\\DeclareOption` bodies run by `\\ExecuteOptions` and `\\ProcessOptions`
  for the options given);
* `resolve_ifs(text, flags)`: the text with the branches those switches do not take
  blanked out (every other conditional is kept whole, both branches, as before);
* `normalsize(body)`: the size a `\\normalsize` definition sets, in PostScript points.

No TeX is run: this reads text, with the small subset of TeX above, and gives up (returns
the text unchanged, no flags) where the structure is not clear.
"""

from __future__ import annotations

import re

_DEF = re.compile(r"\\(?:long\s*\\|global\s*\\|protected\s*\\)*(g|e|x)?def(?![A-Za-z@])")
_CS = re.compile(r"\s*\\([A-Za-z@]+|.)")


def definition(text: str, i: int, kind: str) -> tuple[str, bool, int, int] | None:
    """A definition whose command name ends at `i` (`\\def`, `\\newcommand`, ...):
    (defined name, takes arguments, body start, body end), or None when unreadable.

    `kind` is "def" for the primitive forms (parameter text up to the body's brace) and
    "newcommand" for LaTeX's (`{\\name}` or `\\name`, then `[n]` and `[default]`)."""
    from figlint.ingest.texsource import read_arg

    n = len(text)
    if kind == "def":
        m = _CS.match(text, i)
        if m is None:
            return None
        name = m.group(1)
        j = m.end()
        k = j
        while k < n and text[k] not in "{}" and k - j < 200:
            k += 1
        if k >= n or text[k] != "{":
            return None
        args = "#" in text[j:k]
        a = read_arg(text, k, "{")
    else:
        j = i
        if text[j:j + 1] == "*":
            j += 1
        m = re.match(r"\s*\{\s*\\([A-Za-z@]+|.)\s*\}|\s*\\([A-Za-z@]+|.)", text[j:j + 120])
        if m is None:
            return None
        name = m.group(1) or m.group(2)
        j += m.end()
        o = read_arg(text, j, "[")
        args = o is not None
        if o is not None:
            j = o[2]
            o2 = read_arg(text, j, "[")
            if o2 is not None:
                j = o2[2]
        a = read_arg(text, j, "{")
        if a is not None and text[a[0] - 1:a[0]] != "{":
            return None
    if a is None:
        return None
    return name, args, a[0], a[1]


_OPT_CMD = re.compile(
    r"\\(DeclareOption|ExecuteOptions|ProcessOptions|newif|DeclareOptionX|ExecuteOptionsX|ProcessOptionsX|LoadClass|(?:long\s*\\|global\s*\\)*[gex]?def|newcommand"
    r"|renewcommand|providecommand)(?![A-Za-z@])\*?"
    r"|\\([A-Za-z@]+?)(true|false)(?![A-Za-z@])"
)
_FLAG_TOKEN = re.compile(r"(?P<newif>\\newif\s*|\\let\s*\\if[A-Za-z@]*\s*=?\s*|\\let\s*)?"
                         r"\\(?P<cond>if(?P<name>[A-Za-z@]*)|else|fi)(?![A-Za-z@])|" + _OPT_CMD.pattern)
_STANDARD_FLAGS = ("@twocolumn", "@twoside")


def option_flags(text: str, options: list[str]) -> dict[str, bool]:
    """`\\newif` switches of a class/package file after its options are processed with
    `options` (the \\documentclass options for a class): {name without `if`: value}."""
    from figlint.ingest.texsource import read_arg

    flags: dict[str, bool] = {f: False for f in _STANDARD_FLAGS}
    flags["@twocolumn"] = "twocolumn" in options
    flags["@twoside"] = "twoside" in options
    declared: dict[str, str] = {}

    def run(body: str, depth: int) -> None:
        if depth > 3:
            return
        for m in re.finditer(r"\\ExecuteOptionsX?\s*\{([^}]*)\}|\\([A-Za-z@]+?)(true|false)(?![A-Za-z@])", body):
            if m.group(1) is not None:
                for o in m.group(1).split(","):
                    if o.strip() in declared:
                        run(declared[o.strip()], depth + 1)
            elif m.group(2) in flags:
                flags[m.group(2)] = m.group(3) == "true"

    # conditionals on switches already known are followed as TeX would (copernicus.cls:
    # `\if@stage@final\else\@stage@finaltrue\@manuscripttrue\fi`); others run both branches
    stack: list[list] = []  # [known, value, in else-branch]
    pos = 0
    while True:
        m = _FLAG_TOKEN.search(text, pos)
        if m is None:
            break
        pos = m.end()
        if m.group("cond"):
            tok, name = m.group("cond"), m.group("name")
            if m.group("newif"):
                if m.group("newif").startswith("\\newif") and not any(f[0] and f[1] == f[2] for f in stack):
                    flags.setdefault(name, False)
            elif _not_a_test(text, m):
                pass
            elif tok.startswith("if"):
                known = name in flags or name in ("true", "false")
                stack.append([known, flags.get(name, name == "true"), False])
            elif tok == "else":
                if stack:
                    stack[-1][2] = True
            elif stack:
                stack.pop()
            continue
        if any(f[0] and f[1] == f[2] for f in stack):  # on a branch not taken
            cmd = m.group(4)
            if cmd and (cmd.endswith("def") or "command" in cmd):
                d = definition(text, pos, "def" if cmd.endswith("def") else "newcommand")
                if d is not None:
                    pos = d[3] + 1
            continue
        cmd = m.group(4)
        if cmd is None:
            if m.group(5) in flags:
                flags[m.group(5)] = m.group(6) == "true"
            continue
        if cmd == "newif":
            nm = re.match(r"\s*\\if([A-Za-z@]+)", text[pos:pos + 80])
            if nm:
                flags.setdefault(nm.group(1), False)
                pos += nm.end()
        elif cmd in ("DeclareOption", "DeclareOptionX"):  # xkeyval's X forms, as quantumarticle.cls
            if text[pos - 1] == "*":  # the code for undeclared options: not a switch of ours
                b = read_arg(text, pos, "{")
                pos = b[2] if b else pos
                continue
            a = read_arg(text, pos, "{")
            d = read_arg(text, a[2], "[") if a else None  # an X option's default value
            b = read_arg(text, d[2] if d else a[2], "{") if a else None
            if a and b:
                declared[text[a[0]:a[1]].strip()] = text[b[0]:b[1]]
                pos = b[2]
        elif cmd in ("ExecuteOptions", "ExecuteOptionsX"):
            a = read_arg(text, pos, "{")
            if a:
                for o in text[a[0]:a[1]].split(","):
                    if o.strip() in declared:
                        run(declared[o.strip()], 1)
                pos = a[2]
        elif cmd == "LoadClass":  # the base class processes its options again: its own switches are set anew
            o = read_arg(text, pos, "[")
            given = options + ([x.strip() for x in text[o[0]:o[1]].split(",")] if o else [])
            flags["@twocolumn"] = "twocolumn" in given
            flags["@twoside"] = "twoside" in given
        elif cmd in ("ProcessOptions", "ProcessOptionsX"):
            starred = text[m.end() - 1] == "*"
            order = [o for o in options if o in declared] if starred else [o for o in declared if o in options]
            for o in order:
                run(declared[o], 1)
        else:  # a definition: its body runs only when used
            d = definition(text, pos, "def" if cmd.endswith("def") else "newcommand")
            if d is not None:
                pos = d[3] + 1
    return flags


# group 1: a prefix that makes the \\if.. token a name, not a test: \\newif\\ifx declares it,
# \\let\\ifx\\iftrue and \\def\\iftwocol#1#2{..} define it
_IF = re.compile(r"(\\newif\s*|\\let\s*\\if[A-Za-z@]*\s*=?\s*|\\let\s*|\\(?:[gex]?def|(?:re)?newcommand\*?\s*\{?"
                 r"|providecommand\*?\s*\{?|DeclareRobustCommand\*?\s*\{?)\s*)?\\(if([A-Za-z@]*)|else|fi)(?![A-Za-z@])")


def _not_a_test(text: str, m: re.Match, g: int = 1) -> bool:
    """An \\if.. token that is a name being declared or defined, or a macro with braced
    arguments (`\\iflanguage{ngerman}{..}{..}`, `\\ifthenelse{..}`), not a TeX conditional."""
    if m.group(g):
        return True
    tok = m.group(g + 1)
    if tok.startswith("if"):
        j = m.end()
        while j < len(text) and text[j] in " \t":
            j += 1
        return j < len(text) and text[j] == "{"
    return False


_DEFINES = re.compile(
    r"\\(?:long\s*\\|global\s*\\|protected\s*\\)*([gex]?def)(?![A-Za-z@])"
    r"|\\(newcommand|renewcommand|providecommand|DeclareRobustCommand|newenvironment|renewenvironment)"
    r"(?![A-Za-z@])\*?"
)


def _bodies(text: str) -> list[tuple[int, int]]:
    """(start, end) of the definition bodies at the top level of `text`, in order."""
    from figlint.ingest.texsource import read_arg

    out: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _DEFINES.search(text, pos)
        if m is None:
            return out
        d = definition(text, m.end(), "def" if m.group(1) else "newcommand")
        if d is None:
            pos = m.end()
            continue
        out.append((d[2], d[3]))
        pos = d[3] + 1
        if m.group(2) and m.group(2).endswith("environment"):  # the \end code is a second body
            e = read_arg(text, pos, "{")
            if e is not None and text[e[0] - 1:e[0]] == "{":
                out.append((e[0], e[1]))
                pos = e[1] + 1


def _dropped(text: str, known: dict[str, bool]) -> list[tuple[int, int]] | None:
    """Spans to blank so that only the taken branches of known conditionals remain (their
    \\if, \\else and \\fi too); None when a known conditional is not closed in `text`."""
    stack: list[list] = []  # [known, value, in else-branch]
    spans: list[tuple[int, int]] = []
    cur = 0  # start of the text not yet classified

    def dropping() -> bool:
        return any(f[0] and f[1] == f[2] for f in stack)  # a known frame on its branch not taken

    for m in _IF.finditer(text):
        if _not_a_test(text, m):
            continue
        if dropping():
            spans.append((cur, m.start()))
        tok, name = m.group(2), m.group(3)
        frame = None
        if tok.startswith("if"):
            frame = [name in known, known.get(name, True), False]
            stack.append(frame)
        elif tok == "else":
            frame = stack[-1] if stack else None
            if frame is not None:
                frame[2] = True
        elif stack:
            frame = stack.pop()
        if (frame is not None and frame[0]) or dropping():
            spans.append((m.start(), m.end()))
        cur = m.end()
    if any(f[0] for f in stack):
        return None
    return spans


def resolve_ifs(text: str, flags: dict[str, bool]) -> str:
    """Blank the branches that `\\if<flag>` (a known switch, `\\iftrue`, `\\iffalse`) does
    not take; other conditionals stay whole. The top level and each definition body are
    resolved on their own (a body may open a conditional its macro's caller closes, as
    `\\IfUnDef` in aastex631.cls); where a known conditional does not close, that text stays."""
    if "\\if" not in text:
        return text
    known = dict(flags)
    known["true"], known["false"] = True, False
    bodies = _bodies(text)
    masked = list(text)
    for a, b in bodies:
        masked[a:b] = " " * (b - a)
    spans = list(_dropped("".join(masked), known) or [])
    for a, b in bodies:
        inner = _dropped(text[a:b], known) or []
        spans += [(a + x, a + y) for x, y in inner]
    if not spans:
        return text
    out = list(text)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


_FONT_MACROS = {"vpt": 5, "vipt": 6, "viipt": 7, "viiipt": 8, "ixpt": 9, "xpt": 10, "xipt": 10.95,
                "xiipt": 12, "xivpt": 14.4, "xviipt": 17.28}
_SETFONTSIZE = re.compile(
    r"\\@setfontsize\s*\{?\s*\\[A-Za-z@]+\s*\}?\s*(?:\{\s*([\d.]+)\s*(pt|bp)?\s*\}|\\@([a-z]+pt)(?![A-Za-z@]))"
    r"|\\fontsize\s*\{\s*([\d.]+)\s*(pt|bp)?\s*\}"
)
_FIRST_CS = re.compile(r"\s*\\([A-Za-z@]+)")


def normalsize(body: str, defs: dict[str, str] | None = None, depth: int = 0) -> float | None:
    """The body size a `\\normalsize` definition sets, in PostScript points to the half
    point (how the PDF route reports a body size), or None. A body that starts with a macro
    of the file's own (`\\ElevenPtType`, AEA.cls) is followed into that macro's definition."""
    from figlint.ingest.placement import BP

    m = _SETFONTSIZE.search(body)
    if m is None:
        first = _FIRST_CS.match(body)
        if first and defs and first.group(1) in defs and depth < 3:
            return normalsize(defs[first.group(1)], defs, depth + 1)
        return None
    num, unit = (m.group(1), m.group(2)) if m.group(1) or m.group(3) else (m.group(4), m.group(5))
    if num:
        try:
            size = float(num)
        except ValueError:
            return None
        pt = size * BP if unit == "bp" else size
    else:
        pt = _FONT_MACROS.get(m.group(3))
        if pt is None:
            return None
    return round(pt / BP * 2) / 2 if pt > 0 else None


def undecided(text: str) -> list[tuple[int, int]]:
    """Spans of `text` inside a conditional left whole (an `\\ifx`, `\\ifnum`, a switch no
    option sets), at the top level: what stands there may or may not run. IEEEtran-like
    classes define `\\normalsize` once per size under `\\ifx\\CLASSOPTIONpt..`: none of them
    is the body size for sure."""
    masked = list(text)
    for a, b in _bodies(text):
        masked[a:b] = " " * (b - a)
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    flat = "".join(masked)
    for m in _IF.finditer(flat):
        if _not_a_test(flat, m):
            continue
        if m.group(2).startswith("if"):
            if depth == 0:
                start = m.start()
            depth += 1
        elif m.group(2) == "fi":
            if depth == 0:  # a \\fi that closes nothing here: the nesting is not ours to read
                return []
            depth -= 1
            if depth == 0:
                out.append((start, m.end()))
    if depth > 0:  # the nesting does not close: the spans are not to be trusted
        return []
    return out
