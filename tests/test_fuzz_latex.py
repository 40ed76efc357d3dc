"""Property tests (hypothesis) for the LaTeX reader and for caption/citation parsing.

The reader (`figlint.ingest.latex.read_latex`) gets generated source trees written to
temporary directories: brace and command soup, nesting thousands deep (braces,
environments, captions, math), single lines of a megabyte, random undecodable bytes,
and random `\\input` graphs (cycles, missing files, paths leaving the tree, files
included over and over). The mention and caption parsers
(`figlint.mentions.find_mentions`, `parse_caption_label`, `sentence_spans`) get
random and adversarial text. Properties: no exception other than
`figlint.errors.InputError`, a result that makes sense, and no hang (a guard in CPU
time of this process fails an example that runs away; it is generous and counts no
other process's load, so a busy machine cannot fail it). How long text handling
takes (linear in its input) is measured by benchmarks/text_scale.py, not here.

CI runs a fixed set of about 700 examples in under a minute. A long run, with fresh
random examples, scales every property's count by FIGLINT_FUZZ_EXAMPLES / 400:

    FIGLINT_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz_latex.py -q

(about 20 minutes on 2 cores); `python benchmarks/fuzz_long.py --minutes 10 --write`
repeats such runs for a set time and records the result in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from figlint.errors import InputError  # noqa: E402
from figlint.ingest.latex import read_latex  # noqa: E402
from figlint.mentions import find_mentions, parse_caption_label, parse_float_label, sentence_at, sentence_spans  # noqa: E402

LONG = int(os.environ.get("FIGLINT_FUZZ_EXAMPLES", "0") or 0)
LONG_BASE = 400  # the CI count of the cheapest property (mentions): FIGLINT_FUZZ_EXAMPLES replaces it


def fuzz(default: int):
    """Settings for one property: `default` examples in CI (derandomized: the same each run).
    In a long run every property gets FIGLINT_FUZZ_EXAMPLES / 400 times its CI count of fresh
    random examples, so the expensive ones (megabyte lines) keep their share of the time."""
    return settings(
        max_examples=max(default, LONG * default // LONG_BASE) if LONG else default,
        deadline=None,  # time is bounded by time_limit below, with room for a slow machine
        derandomize=not LONG,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                               HealthCheck.filter_too_much],
        print_blob=True,
    )


class Hang(BaseException):
    """Raised by the guard: a BaseException so the reader's `except Exception` cannot swallow it."""


HANG_FACTOR = 10  # the guard allows this many times an example's usual CPU time


@contextmanager
def time_limit(seconds: float | None, what: str):
    """A hang guard in CPU time of this process (ITIMER_PROF), `seconds` times HANG_FACTOR:
    other processes loading the machine do not use it up, and nothing is asserted about
    the clock. None: no guard."""
    if seconds is None:
        yield
        return
    limit = seconds * HANG_FACTOR

    def fire(signum, frame):
        raise Hang(f"{what} used more than {limit:g} s of CPU time: a hang")

    previous = signal.signal(signal.SIGPROF, fire)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ---------------------------------------------------------------- LaTeX trees

TOKENS = [
    "{", "}", "{", "}", "{", "}", "\\", "\\\\", "%", "\n", "\n\n", " ", "~", "$", "$$", "&", "#", "#1", "^", "_",
    "[", "]", "(", ")", "\\{", "\\}", "\\%", "\\[", "\\]",
    "\\begin{figure}", "\\end{figure}", "\\begin{figure*}[t]", "\\end{figure*}", "\\begin{subfigure}{0.5\\linewidth}",
    "\\end{subfigure}", "\\begin{minipage}{3cm}", "\\end{minipage}", "\\begin{document}", "\\end{document}",
    "\\begin{verbatim}", "\\end{verbatim}", "\\begin{comment}", "\\end{comment}", "\\begin{tabular}{cc}",
    "\\end{tabular}", "\\begin{table}", "\\end{table}", "\\begin{wrapfigure}{r}{0.4\\textwidth}", "\\end{wrapfigure}",
    "\\begin{center}", "\\end{center}", "\\begin{", "\\end{", "\\begin{tikzpicture}", "\\end{tikzpicture}",
    "\\caption{", "\\caption[", "\\caption*{", "\\captionof{figure}{", "\\subcaption{", "\\subfloat[",
    "\\label{", "fig:a", "fig:b", "sec:x", "\\label{fig:a}", "\\label{fig:b}",
    "\\ref{", "\\ref{fig:a}", "\\cref{fig:a,fig:b}", "\\Cref{", "\\autoref{", "\\subref{", "\\eqref{", "\\pageref{",
    "\\nameref{", "\\crefrange{fig:a}{fig:b}", "\\includegraphics", "\\includegraphics[width=\\linewidth]{",
    "a.png", "b.pdf", "\\includegraphics{a}", "\\input{", "\\include{", "\\import{sub/}{", "sub/", "../", "/etc/passwd",
    "\\input{plot.pgf}", "\\def", "\\x", "\\def\\x{", "\\def\\x#1{#1#1}", "\\x{\\x{\\x{a}}}", "\\newcommand",
    "\\newcommand{\\y}[2][d]{#1#2}", "\\renewcommand{\\figurename}{Fig.}", "\\newcommand{\\fig}[1]{Figure~\\ref{#1}}",
    "\\fig{fig:a}", "\\DeclareRobustCommand{\\z}{", "\\let\\a\\b", "\\makeatletter", "\\makeatother", "@",
    "\\iffalse", "\\fi", "\\else", "\\ifx", "\\newif\\iffoo", "\\foofalse", "\\iffoo", "\\verb|", "\\verb+", "|",
    "\\lstinline{", "\\section{", "\\section*{Intro}", "\\appendix", "\\item", "\\par", "\\centering",
    "\\hspace{1cm}", "\\vspace*{-2pt}", "\\textbf{", "\\emph{", "\\url{", "\\href{http://x}{", "\\cite{", "\\citep{a,b}",
    "\\footnote{", "\\usepackage{graphicx}", "\\usepackage[capitalise,noabbrev]{cleveref}", "\\graphicspath{{fig/}}",
    "\\setcounter{figure}{", "\\renewcommand{\\thefigure}{", "\\Alph{figure}", "S\\arabic{figure}",
    "\\documentclass{article}", "\\documentclass[twocolumn]{acmart}", "\\crefname{figure}{fig.}{figs.}",
    "Figure 1", "Fig. 2(a)", "Figs. 1-3", "Figures 2 and 4b", "Fig.~\\ref{", "see Figure", "3", "A1", "2.1",
    "\u00e9", "\u00a0", "\x00", "\ufeff", "\u202e", "\r", "\t", "\x0c", "\\\x00", "\\\n",
]

soup = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=300).map("".join)


def _write(dir: Path, name: str, content: str | bytes) -> Path:
    path = dir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8", "surrogatepass"))
    else:
        path.write_bytes(content)
    return path


def _document(preamble: str, body: str) -> str:
    return f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"


KNOWN_PROBLEMS = {"FL001", "FL003", "FL004", "FL005", "FL006", "FL007", "FL008", "FL009", "FL010", "FL011"}


def check_paper(paper) -> None:
    """What any successful read must look like."""
    assert paper.route == "latex"
    for fig in paper.figures:
        assert isinstance(fig.number, str)
        loc = fig.location
        assert loc.line is None or loc.line >= 1
        if fig.caption is not None:
            assert isinstance(fig.caption.text, str)
        for site in fig.sites:
            assert site.location.line is None or site.location.line >= 1
    for p in paper.problems:
        assert p.code in KNOWN_PROBLEMS, p
        assert isinstance(p.message, str) and "\n" not in p.message.strip(), p.message


def read(path: Path, seconds: float | None, what: str):
    """read_latex under a hang guard: the paper, or None for an InputError (a one-line reason)."""
    with time_limit(seconds, what):
        try:
            paper = read_latex(str(path))
        except InputError as exc:
            assert str(exc).strip() and "\n" not in str(exc).strip()
            return None
    check_paper(paper)
    return paper


@fuzz(120)
@given(preamble=soup, body=soup, wrapped=st.booleans())
@example(preamble="", body="\\input{0\n0}\\includegraphics{../x\ny}", wrapped=True)  # messages stay one line
def test_command_soup(preamble, body, wrapped):
    with tempfile.TemporaryDirectory() as tmp:
        text = _document(preamble, body) if wrapped else preamble + body
        path = _write(Path(tmp), "main.tex", text)
        read(path if wrapped else Path(tmp), 20, "read_latex on soup")


@pytest.fixture(scope="module")
def graphics_files(tmp_path_factory):
    """Small real graphics (a PNG, a one-page vector PDF) and a PNG declaring 50,000^2 pixels."""
    import pymupdf

    from fixtures.mutations import bomb_png

    d = tmp_path_factory.mktemp("graphics")
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), 0)
    pix.clear_with(200)
    (d / "a.png").write_bytes(pix.tobytes("png"))
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=120)
    page.draw_rect(pymupdf.Rect(20, 20, 60, 100), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
    page.insert_text((20, 115), "0  10  20", fontsize=5)
    doc.save(d / "b.pdf")
    doc.close()
    bomb_png(d)
    return {p.name: p.read_bytes() for p in d.iterdir()}


@fuzz(40)
@given(preamble=soup, body=soup)
def test_soup_through_the_engine(graphics_files, preamble, body):
    """The whole LaTeX route (placement from graphics files, rules, judge) on soup, with real
    graphics in the tree: never an internal error (FL009) or an unexplained failure."""
    from figlint.config import Config
    from figlint.engine import lint_path

    with tempfile.TemporaryDirectory() as tmp:
        for name, data in graphics_files.items():
            _write(Path(tmp), name, data)
        body = body + "\\begin{figure}\\includegraphics[width=\\linewidth]{a}\\includegraphics{b.pdf}" \
            "\\includegraphics{bomb}\\caption{Soup.}\\label{fig:s}\\end{figure}"
        path = _write(Path(tmp), "main.tex", _document(preamble, body))
        with time_limit(60, "lint_path on soup"):
            result = lint_path(str(path), Config())
    assert result.error is None or "please report it" not in result.error, result.error
    assert not [f for f in result.findings if f.code == "FL009"], [f.message for f in result.findings if f.code == "FL009"]


@fuzz(40)
@given(data=st.binary(max_size=3000), lead=st.sampled_from(["", "\\documentclass{article}\\begin{document}"]))
def test_undecodable_bytes(data, lead):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "main.tex", lead.encode() + data + b"\n\\end{document}")
        read(path, 20, "read_latex on random bytes")


OPENERS = {
    "brace": ("{", "}"),
    "env": ("\\begin{center}", "\\end{center}"),
    "minipage": ("\\begin{minipage}{0.9\\linewidth}", "\\end{minipage}"),
    "figure": ("\\begin{figure}", "\\end{figure}"),
    "caption": ("\\caption{", "}"),
    "textbf": ("\\textbf{", "}"),
    "math": ("\\(\\frac{", "}{2}\\)"),
    "bracket": ("\\includegraphics[", "]{a.png}"),
    "group": ("\\begingroup ", "\\endgroup "),
    "if": ("\\iffalse ", "\\fi "),
}


@fuzz(25)
@given(depth=st.integers(1, 5000), kinds=st.lists(st.sampled_from(sorted(OPENERS)), min_size=1, max_size=3),
       closed=st.floats(0, 1), in_figure=st.booleans(), middle=soup)
@example(depth=5000, kinds=["brace"], closed=1.0, in_figure=True, middle="Figure 1")
@example(depth=5000, kinds=["env"], closed=1.0, in_figure=False, middle="x")
@example(depth=5000, kinds=["figure"], closed=1.0, in_figure=False, middle="\\caption{a}\\label{fig:a}")
@example(depth=5000, kinds=["caption"], closed=1.0, in_figure=True, middle="\\ref{fig:a}")
@example(depth=5000, kinds=["brace", "env"], closed=0.0, in_figure=True, middle="")
def test_deep_nesting(depth, kinds, closed, in_figure, middle):
    openers = [OPENERS[kinds[i % len(kinds)]] for i in range(depth)]
    n_close = int(depth * closed)
    body = "".join(o for o, _ in openers) + middle + "".join(c for _, c in reversed(openers[depth - n_close:]))
    if in_figure:
        body = f"\\begin{{figure}}\\centering {body}\\caption{{Deep.}}\\label{{fig:deep}}\\end{{figure}} See Figure~\\ref{{fig:deep}}."
    with tempfile.TemporaryDirectory() as tmp:
        read(_write(Path(tmp), "main.tex", _document("", body)), 60, f"read_latex on {depth}-deep {kinds}")


@fuzz(4)
@given(unit=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=8).map("".join), in_figure=st.booleans())
@example(unit="a", in_figure=False)
@example(unit="Fig. 1, ", in_figure=True)
@example(unit="{", in_figure=False)
def test_huge_line(unit, in_figure):
    """One line of about a megabyte (no newline in it) is read, and read right: with plain
    text in a caption, the figure and its caption are there. No deadline:
    benchmarks/text_scale.py measures how long such a line takes (CPU, linear in size)."""
    unit = unit.replace("\n", " ").replace("\r", " ") or "x"
    line = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    body = line if not in_figure else f"\\begin{{figure}}\\caption{{{line}}}\\label{{fig:a}}\\end{{figure}} Figure~\\ref{{fig:a}}"
    with tempfile.TemporaryDirectory() as tmp:
        paper = read(_write(Path(tmp), "main.tex", _document("", body)), None, f"read_latex on a 1 MB line of {unit[:20]!r}")
    if in_figure and paper is not None and re.fullmatch(r"[A-Za-z0-9 .,;:()]+", unit):
        # (a caption this long is read in part: its first 150,000 characters; the label after
        # it is then missed and the \ref reported as undefined, FL006)
        assert len(paper.figures) == 1 and paper.figures[0].caption is not None
        assert len(paper.figures[0].caption.text) >= 100_000


# ---------------------------------------------------------------- \input graphs

PLAIN = st.sampled_from([
    "Text.", "Figure 2 shows it.", "See Fig.~\\ref{fig:f0}.", "\\begin{figure}\\includegraphics{a.png}\\caption{A.}"
    "\\label{fig:FILE}\\end{figure}", "\\section{S}", "$x$", "\\cite{k}", "",
])


@st.composite
def input_graphs(draw):
    """n files, each with text and includes of other files (cycles, repeats, missing, outside)."""
    n = draw(st.integers(1, 8))
    edges = {i: draw(st.lists(st.integers(-3, n - 1), max_size=4)) for i in range(n)}
    forms = {i: draw(st.lists(st.sampled_from(["input", "include", "input_space", "subdir"]), min_size=4, max_size=4))
             for i in range(n)}
    texts = {i: draw(st.lists(PLAIN, max_size=3)) for i in range(n)}
    main_edges = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    return n, edges, forms, texts, main_edges


def _include(form: str, target: int) -> str:
    if target == -1:
        return "\\input{missing}"
    if target == -2:
        return "\\input{../../outside}"
    if target == -3:
        return "\\input{/etc/hostname}"
    return {"input": f"\\input{{f{target}}}", "include": f"\\include{{f{target}}}",
            "input_space": f"\\input f{target} ", "subdir": f"\\input{{sub/../f{target}}}"}[form]


def _reachable_cycle(edges: dict[int, list[int]], start: list[int]) -> bool:
    state: dict[int, int] = {}

    def visit(u: int) -> bool:
        state[u] = 1
        for v in edges.get(u, []):
            if v < 0:
                continue
            if state.get(v) == 1 or (state.get(v) is None and visit(v)):
                return True
        state[u] = 2
        return False

    return any(state.get(s) is None and visit(s) for s in start)


@fuzz(60)
@given(graph=input_graphs())
def test_input_graphs(graph):
    n, edges, forms, texts, main_edges = graph
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "paper"
        for i in range(n):
            parts = [t.replace("FILE", str(i)) for t in texts[i]]
            parts += [_include(forms[i][k % 4], t) for k, t in enumerate(edges[i])]
            _write(root, f"f{i}.tex", "\n".join(parts) + "\n")
        (root / "sub").mkdir(exist_ok=True)
        body = "\n".join(f"\\input{{f{t}}}" for t in main_edges)
        paper = read(_write(root, "main.tex", _document("\\usepackage{graphicx}", body)), 30, "read_latex on an input graph")
    assert paper is not None
    codes = {p.code for p in paper.problems}
    # Only \input{...} edges make a plain graph; other forms may be read differently.
    plain = {i: [t for k, t in enumerate(edges[i]) if forms[i][k % 4] == "input"] for i in range(n)}
    if _reachable_cycle(plain, main_edges):
        assert "FL004" in codes, paper.problems


def test_include_blowup_is_capped():
    """f0 includes f1 twice, f1 includes f2 twice, ... 25 deep: 2**25 copies if followed."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i in range(25):
            _write(root, f"f{i}.tex", f"\\input{{f{i + 1}}}\\input{{f{i + 1}}}\n" if i < 24 else "Figure 1.\n")
        paper = read(_write(root, "main.tex", _document("", "\\input{f0}")), 30, "read_latex on an include blow-up")
    assert any(p.code == "FL004" and "over and over" in p.message for p in paper.problems)


# ---------------------------------------------------------------- mentions and captions

MENTION_TOKENS = [
    "Fig", "Fig.", "Figs.", "Figure", "Figures", "FIG.", "FIGURE", "fig", "figs", "Supplementary ", "Extended Data ",
    " ", "  ", "~", "\u00a0", "\u2009", "\u202f", "\n", "\t", "1", "2", "3", "10", "S1", "A2", "A.2", "3.2", "12a",
    "a", "b", "c", "z", "(a)", "(b)", "(a,b)", "(a-c)", "(a)\u2013(c)", "(", ")", ",", ", ", " and ", " & ", " or ",
    "-", "--", "---", "\u2013", "\u2014", "\u2212", " to ", " through ", ".", ":", "|", ";", "e.g.", "i.e.", "et al.",
    "Dr.", " A.", "Table", "Tab.", "Algorithm", "Listing", "\u201c", "\u201d", "'", '"', "?", "!", "GB", "\x00",
]
mention_text = st.lists(st.one_of(st.sampled_from(MENTION_TOKENS), st.text(max_size=4)), max_size=200).map("".join)
NUM_RE = re.compile(r"(?:[A-Z]\.?\d+|\d+(?:\.\d+)?)")


def check_mentions(text: str) -> None:
    last_end = 0
    for m in find_mentions(text):
        assert last_end <= m.start < m.end <= len(text)
        assert m.text == text[m.start:m.end]
        assert m.numbers and all(NUM_RE.fullmatch(n) for n in m.numbers), m
        assert len(m.numbers) == len(set(m.numbers))
        assert set(m.panels) <= set(m.numbers), m
        last_end = m.end


@fuzz(400)
@given(text=mention_text)
@example(text="Figs. 1, 2, and 3(a)\u2013(c) and 4b")
def test_mentions(text):
    with time_limit(10, "mention parsing"):
        check_mentions(text)
        label = parse_caption_label(text)
        if label is not None:
            lab, num, rest = label
            assert lab.endswith(num) and num in text
            assert rest == rest.strip()
        flt = parse_float_label(text)
        assert flt is None or flt[0] in ("figure", "table", "algorithm", "listing")
        spans = sentence_spans(text)
        prev = 0
        for a, b in spans:
            assert prev <= a < b <= len(text)
            prev = b
        if text:
            assert isinstance(sentence_at(text, len(text) // 2), str)


@fuzz(30)
@given(unit=st.lists(st.sampled_from(MENTION_TOKENS), min_size=1, max_size=6).map("".join),
       size=st.integers(10_000, 300_000))
@example(unit="see Fig. A ", size=300_000)
@example(unit="2, ", size=300_000)
@example(unit="(a) and ", size=300_000)
@example(unit=" ", size=300_000)
def test_mentions_adversarial_length(unit, size):
    """Long repetitive text (a PDF paragraph of 300 KB) stays linear: no quadratic scans."""
    assume(unit)
    text = ("Figs. 1" if "Fig" not in unit else "") + (unit * (size // len(unit) + 1))[:size]
    with time_limit(10, f"mention parsing of {size} chars of {unit[:20]!r}"):
        check_mentions(text)
        parse_caption_label(text)
        sentence_spans(text)
