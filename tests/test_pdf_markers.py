"""A scatter's runs of markers read once per run, not once per point (figlint/ingest/pdf_markers.py).

For the PDF route's path pass, a run of paints of one marker form, with only translations and
RGB colours between them, keeps its first paints and a sentinel; the paints after it are written
by figlint as the last kept one moved. The page must read the same: the same paths (style,
segments, boxes within MuPDF's single-precision drift), the same count, clips and paint numbers,
the same hidden text, the same findings; and a run that does not check is read again as painted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

pymupdf = pytest.importorskip("pymupdf")

from figlint.config import Config  # noqa: E402
from figlint.engine import lint_path  # noqa: E402
from figlint.ingest import pdf_markers  # noqa: E402
from figlint.ingest.pdf_forms import FormInflater  # noqa: E402
from figlint.ingest.pdf_layout import read_page  # noqa: E402
from figlint.ingest.paths import MovedRecord  # noqa: E402
from figlint.ingest.pdf_paths import read_paths  # noqa: E402

# MuPDF's single-precision transform drifts from the exact sums over a run of at most MAX_RUN
# translations by less than a thousandth of a point (field papers: 0.0007 at most); ten times
# that would be a bug.
DRIFT = 0.01
HIDDEN = "hid"  # the word under the 31st of the large markers


def _scatter(path: Path) -> None:
    """A colour-mapped scatter of 300 points (a colour between most markers), then 60 large red
    markers painted over a tiny word: the 31st of them covers it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3.4, 2.4))
    xs = [(k * 37) % 101 / 10.0 for k in range(300)]
    ys = [(k * 53) % 97 / 9.7 for k in range(300)]
    ax.scatter(xs, ys, c=[(k * 13) % 29 for k in range(300)], cmap="viridis", s=6)
    big = [((k * 29) % 41 / 10.0 + 1, (k * 31) % 37 / 10.0 + 1) for k in range(60)]
    big[30] = (5.0, 5.0)
    ax.text(5.0, 5.0, HIDDEN, fontsize=3, ha="center", va="center")
    ax.scatter([p[0] for p in big], [p[1] for p in big], s=400, color="tab:red", zorder=5)
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    fig.tight_layout()
    fig.savefig(path, metadata={"CreationDate": None, "ModDate": None})
    plt.close(fig)


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    """A paper (pdflatex) whose figure is that scatter, placed as pdfTeX places a PDF."""
    pytest.importorskip("matplotlib")
    from fixtures.pdf_build import compile_tex

    folder = tmp_path_factory.mktemp("markers")
    _scatter(folder / "scatter.pdf")
    tex = ("\\documentclass{article}\\usepackage{graphicx}\\begin{document}\n"
           "Figure~\\ref{fig:s} shows where the beads sat.\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=0.8\\linewidth]{scatter.pdf}\n"
           "\\caption{Measured positions of the beads in the chamber.}\\label{fig:s}\\end{figure}\n"
           "\\end{document}\n")
    return compile_tex(folder, tex)


def _inflated(path):
    doc = pymupdf.open(stream=Path(path).read_bytes(), filetype="pdf")
    forms = FormInflater(doc)
    forms.page(0)
    return doc, forms


def _both(path):
    """read_paths of page 0 as painted (markers written in place) and with runs collapsed."""
    doc, forms = _inflated(path)
    with forms.path_pass(0) as none:
        assert none is None
        plain = read_paths(doc[0])
    with forms.path_pass(0, collapse=True) as runs:
        assert runs
        collapsed = read_paths(doc[0], runs=runs)
    return forms, plain, collapsed


def _drift(a, b) -> float:
    worst = max(abs(x - y) for x, y in zip(a.rect, b.rect))
    assert len(a.lines) == len(b.lines)
    for ra, rb in zip(a.lines, b.lines):
        assert len(ra) == len(rb)
        for p, q in zip(ra, rb):
            worst = max(worst, abs(p[0] - q[0]), abs(p[1] - q[1]))
    return worst


def test_runs_are_found_with_their_colours(paper):
    _doc, forms = _inflated(paper)
    runs = list(forms.runs.values())
    # the cloud's 300 paints in runs of at most MAX_RUN, then the 60 large markers
    assert sum(len(r.offsets) for r in runs) == 360 and max(len(r.offsets) for r in runs) == pdf_markers.MAX_RUN
    big = runs[-1]
    assert len(big.offsets) == 60 and not any(big.fills) and not any(big.strokes)  # one colour, set before
    colours = {f for r in runs[:-1] for f in r.fills if f}
    assert len(colours) >= 20  # the colour map's colours, set between paints
    (painter,) = forms.painters_on[0]
    _as_is, _text, written, collapsed = forms.painters[painter]
    assert len(collapsed) < len(written) / 2  # the paints after the sentinels are gone


def test_page_reads_the_same_with_runs_collapsed(paper):
    forms, (a, total_a, frames_a, fills_a), (b, total_b, frames_b, fills_b) = _both(paper)
    assert total_b == total_a and frames_b == frames_a
    assert len(b) == len(a) >= 360
    moved = [r for r in b if isinstance(r, MovedRecord)]
    assert len(moved) == 360 - len(forms.runs) * pdf_markers.KEEP  # every paint after each sentinel
    for x, y in zip(a, b):
        assert (x.style, x.n, x.shape, x.box, x.white, x.alpha) == (y.style, y.n, y.shape, y.box, y.white, y.alpha)
        assert _drift(x, y) < DRIFT
    assert [f["seqno"] for f in fills_b] == [f["seqno"] for f in fills_a]
    for f, g in zip(fills_a, fills_b):
        assert max(abs(u - v) for u, v in zip(f["rect"], g["rect"])) < DRIFT


def test_text_under_a_moved_marker_is_hidden(paper):
    """The word under the 31st large marker (one written by figlint, not read by MuPDF) is
    painted over: it is not read, as when the page is read as painted."""
    written, _plain, (_paths, _total, _frames, fills) = _both(paper)
    doc, forms = _inflated(paper)
    words = [ln.text for ln in read_page(doc[0], forms).lines]
    assert not [w for w in words if HIDDEN in w], words
    assert "x (mm)" in words
    plain = pymupdf.open(paper)
    assert HIDDEN in plain[0].get_text()  # the word is there, under the marker
    assert not [ln.text for ln in read_page(plain[0]).lines if HIDDEN in ln.text]
    assert sum("_shift" in f for f in fills) == 360 - len(written.runs) * pdf_markers.KEEP


def test_a_run_that_does_not_check_is_read_as_painted(paper, monkeypatch):
    """Where moving the first kept paint does not give the next ones, the page is read again
    with every marker painted: the same lines and paths as with runs, no marker written."""
    doc, forms = _inflated(paper)
    good = read_page(doc[0], forms)
    monkeypatch.setattr(pdf_markers, "_TOL", -1.0)  # no kept paint ever checks
    with pytest.raises(pdf_markers.Collapsed):
        with forms.path_pass(0, collapse=True) as runs:
            read_paths(doc[0], runs=runs)
    again = read_page(doc[0], forms)
    assert [ln.text for ln in again.lines] == [ln.text for ln in good.lines]
    assert again.paths_total == good.paths_total and len(again.drawings) == len(good.drawings)
    assert not any(isinstance(r, MovedRecord) for r in again.drawings)


def _findings(path):
    result = lint_path(str(path), Config())
    assert result.error is None
    return [(f.code, f.message, f.figure) for f in result.findings]


def test_same_findings_with_every_marker_painted(paper, monkeypatch):
    got = _findings(paper)
    monkeypatch.setattr(pdf_markers, "MIN_RUN", 10**9)  # no run collapsed
    assert got == _findings(paper)


MARK = b"0 -3 m 3 0 l 0 3 l h B"


def _collapse(body: bytes, first_id: int):
    """pdf_markers.collapse of a painter's content whose /P0 marks are MARK, each written in place
    as the path pass writes it."""
    from figlint.ingest.pdf_forms import _PAINT

    parts = _PAINT.split(body)
    names = parts[1::2]
    parts[1::2] = [b"q " + MARK + b" Q"] * len(names)
    return pdf_markers.collapse(parts, names, {b"P0": MARK}, first_id)


def test_collapse_keeps_state_and_splits_runs_at_other_operators():
    paint = b"1 0 0 1 2 1 cm /P0 Do\n"
    body = paint * 20 + b"0.5 w\n" + paint * 30 + b"0 0 1 rg " + paint * 5
    out, runs = _collapse(body, 7)
    text = b"".join(out)
    assert sorted(len(r.offsets) for r in runs.values()) == [20, 35] and min(runs) == 7
    assert text.count(b"W n Q") == 2  # one sentinel a run
    assert text.count(b"B Q") == 2 * pdf_markers.KEEP  # the kept paints, written in place
    assert text.count(b"cm") == body.count(b"cm") and b"0.5 w" in text and b"0 0 1 rg" in text
    run = runs[8]  # 30 paints, then a colour and 5 more
    assert run.offsets[1] == (2.0, 1.0) and run.offsets[-1] == (68.0, 34.0)
    assert run.fills[29] is None and run.fills[30] == (0.0, 0.0, 1.0) and run.strokes[30] is None


@pytest.mark.parametrize("content, ok", [
    (MARK, True),
    (b"0 -3 m 3 0 l 0 3 l h f", True),
    (b"1 0 0 rg 0 -3 m 3 0 l 0 3 l h f", False),  # a colour of its own
    (b"0 0 3 3 re W n 0 -3 m 3 0 l h f", False),  # a clip of its own
    (b"0 0 m 3 0 l S 0 0 m 0 3 l S", False),  # two paths
])
def test_markable(content, ok):
    assert pdf_markers.markable(content) is ok


def test_a_long_run_is_cut_so_each_part_is_anchored_where_mupdf_reads():
    paint = b"1 0 0 1 2 1 cm /P0 Do\n"
    total = 2 * pdf_markers.MAX_RUN + pdf_markers.MIN_RUN + 5
    out, runs = _collapse(paint * total, 0)
    assert [len(r.offsets) for r in runs.values()] == [pdf_markers.MAX_RUN] * 2 + [pdf_markers.MIN_RUN + 5]
    assert b"".join(out).count(b"B Q") == 3 * pdf_markers.KEEP


def test_a_short_run_is_left_as_it_is():
    paint = b"1 0 0 1 2 1 cm /P0 Do\n"
    out, runs = _collapse(paint * (pdf_markers.MIN_RUN - 1), 0)
    assert not runs and b"W n" not in b"".join(out)
