"""Small Form XObjects decoded once before a page is read (figlint/ingest/pdf_forms.py).

matplotlib paints each marker of a scatter as a small Flate-compressed form (`/P0 Do`);
the PDF route writes such forms back unfiltered in the document it has open, so MuPDF
decodes each once instead of once per marker per reading. The page must read the same:
its text, its paths, figlint's findings, and MuPDF's messages about damaged content.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

pymupdf = pytest.importorskip("pymupdf")

from figlint.config import Config  # noqa: E402
from figlint.engine import lint_path  # noqa: E402
from figlint.ingest import pdf_forms  # noqa: E402
from figlint.ingest.pdf import read_pdf  # noqa: E402
from figlint.ingest.pdf_forms import FormInflater  # noqa: E402

CAPTION = "Figure 1: Measured and simulated positions of the beads in the chamber."


@pytest.fixture(scope="module")
def scatter_paper(tmp_path_factory):
    """A paper (pdflatex) whose figure is a matplotlib scatter with a legend over its cloud."""
    pytest.importorskip("matplotlib")
    from fixtures.cases_overlay import legend_over_scatter
    from fixtures.charts import draw_chart
    from fixtures.pdf_build import compile_tex

    folder = tmp_path_factory.mktemp("scatter")
    draw_chart(legend_over_scatter, folder / "scatter.pdf")
    tex = ("\\documentclass{article}\\usepackage{graphicx}\\begin{document}\n"
           "Figure~\\ref{fig:s} shows where the beads sat.\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=0.8\\linewidth]{scatter.pdf}\n"
           "\\caption{Measured and simulated positions of the beads in the chamber.}\\label{fig:s}\\end{figure}\n"
           "\\end{document}\n")
    return compile_tex(folder, tex)


def _open(path):
    return pymupdf.open(stream=Path(path).read_bytes(), filetype="pdf")


def _inflated(path):
    doc = _open(path)
    forms = FormInflater(doc)
    for i in range(doc.page_count):
        forms.page(i)
    return doc, forms


def test_marker_forms_are_stored_decoded(scatter_paper):
    plain = _open(scatter_paper)
    doc, forms = _inflated(scatter_paper)
    assert forms.count >= 2  # the two series' markers at least
    rewritten = 0
    for xref, _name, _invoker, _bbox in plain.get_page_xobjects(0):
        before = plain.xref_get_key(xref, "Filter")[0]
        after = doc.xref_get_key(xref, "Filter")[0]
        if before != "null" and after == "null":
            rewritten += 1
            assert doc.xref_stream_raw(xref) == plain.xref_stream(xref)  # the same content, unfiltered
    assert rewritten == forms.count


def test_page_reads_the_same(scatter_paper):
    plain = _open(scatter_paper)
    doc, forms = _inflated(scatter_paper)
    assert forms.count
    a, b = plain[0], doc[0]
    assert a.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP) == b.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    assert a.get_cdrawings(extended=True) == b.get_cdrawings(extended=True)
    assert a.get_image_info() == b.get_image_info()


def _findings(path):
    result = lint_path(str(path), Config())
    assert result.error is None
    return [(f.code, f.message, f.figure) for f in result.findings]


def test_same_findings_with_forms_left_compressed(scatter_paper, monkeypatch):
    got = _findings(scatter_paper)
    monkeypatch.setattr(pdf_forms, "MAX_FORM_BYTES", -1)  # no form is small enough: read as stored
    assert got == _findings(scatter_paper)


def _damaged_form_pdf(path: Path) -> str:
    """Two pages: the first paints in a colour space MuPDF cannot parse, the second paints a
    good small form and one whose Flate data is garbage, each several times."""
    doc = pymupdf.open()
    first = doc.new_page()
    first.insert_text((72, 300), "Figure 1: Accuracy against the number of training epochs.", fontsize=10)
    xref = first.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq /CSbad cs 0.5 sc 100 120 50 50 re f Q\n")
    kind, val = doc.xref_get_key(first.xref, "Resources")
    target = int(val.split()[0]) if kind == "xref" else first.xref
    doc.xref_set_key(target, "ColorSpace" if kind == "xref" else "Resources/ColorSpace", "<</CSbad [/Bogus 1 2 3]>>")
    second = doc.new_page()
    second.insert_text((72, 300), "Figure 2: Loss against the number of training epochs.", fontsize=10)
    forms = []
    for body in (b"0 0 1 rg 0 0 4 4 re f " * 8, None):  # over 30 bytes: PyMuPDF compresses it
        fx = doc.get_new_xref()
        doc.update_object(fx, "<</Type/XObject/Subtype/Form/BBox[0 0 4 4]>>")
        if body is not None:
            doc.update_stream(fx, body, compress=True)
        else:
            doc.update_stream(fx, b"x\x9c garbage that is not deflate data", compress=False)
            doc.xref_set_key(fx, "Filter", "/FlateDecode")
        forms.append(fx)
    xobjects = "<<" + "".join(f"/F{k} {x} 0 R" for k, x in enumerate(forms)) + ">>"
    kind, val = doc.xref_get_key(second.xref, "Resources")
    if kind == "xref":
        doc.xref_set_key(int(val.split()[0]), "XObject", xobjects)
    else:
        doc.xref_set_key(second.xref, "Resources/XObject", xobjects)
    marks = b"".join(b"q 1 0 0 1 %d 100 cm /F%d Do Q\n" % (80 + 10 * i, i % 2) for i in range(12))
    xref = second.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + marks)
    doc.save(str(path))
    doc.close()
    return str(path)


def test_damaged_form_reported_as_before(tmp_path, monkeypatch):
    path = _damaged_form_pdf(tmp_path / "damaged.pdf")
    doc, forms = _inflated(path)
    assert forms.count == 1  # the good form; the damaged one stays compressed
    got = [p.message for p in read_pdf(path).problems]
    assert any("colorspace" in m.lower() for m in got)  # the first page's message, kept
    monkeypatch.setattr(pdf_forms, "MAX_FORM_BYTES", -1)
    assert got == [p.message for p in read_pdf(path).problems]


def test_figure_files_read_the_same(tmp_path, monkeypatch):
    """A chart PDF read on its own (`figlint chart.pdf`) and placed from the sources reads the
    same with its marker forms decoded once."""
    pytest.importorskip("matplotlib")
    from fixtures.cases_overlay import legend_over_scatter
    from fixtures.charts import draw_chart

    from figlint.ingest.graphics import read_graphics
    from figlint.ingest.placement import _pdf_content

    chart = str(draw_chart(legend_over_scatter, tmp_path / "scatter.pdf"))
    doc, forms = _inflated(chart)
    assert forms.count >= 2
    paper, content = read_graphics(chart), _pdf_content(chart, 1)
    assert content is not None and content.drawings
    monkeypatch.setattr(pdf_forms, "MAX_FORM_BYTES", -1)
    assert read_graphics(chart).figures[0].drawings == paper.figures[0].drawings
    assert paper.figures[0].drawings
    assert _pdf_content(chart, 1) == content


def test_memory_kept_decoded_is_bounded(tmp_path, monkeypatch):
    """A small form that expands to a lot (Flate packs 4 KB of zeros into a few bytes) stays
    compressed, and the decoded bytes kept for a document are capped."""
    doc = pymupdf.open()
    page = doc.new_page()
    refs = []
    for body in (b"0 0 1 rg 0 0 4 4 re f " * 8, b"%" + b" " * 200_000 + b"\n0 0 4 4 re f"):
        fx = doc.get_new_xref()
        doc.update_object(fx, "<</Type/XObject/Subtype/Form/BBox[0 0 4 4]>>")
        doc.update_stream(fx, body, compress=True)
        refs.append(fx)
    assert len(doc.xref_stream_raw(refs[1])) <= pdf_forms.MAX_FORM_BYTES  # small as stored
    page.insert_text((72, 300), "Figure 1: Two marks.", fontsize=10)
    kind, val = doc.xref_get_key(page.xref, "Resources")
    xobjects = "<<" + "".join(f"/F{k} {x} 0 R" for k, x in enumerate(refs)) + ">>"
    doc.xref_set_key(int(val.split()[0]) if kind == "xref" else page.xref,
                     "XObject" if kind == "xref" else "Resources/XObject", xobjects)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq /F0 Do Q q 1 0 0 1 10 0 cm /F1 Do Q\n")
    path = tmp_path / "expands.pdf"
    doc.save(str(path))
    doc, forms = _inflated(path)
    assert forms.count == 1 and forms.kept < 1000  # the big one left compressed
    assert doc.xref_get_key(refs[1], "Filter")[0] != "null"
    monkeypatch.setattr(pdf_forms, "MAX_TOTAL_BYTES", 10)  # no room for even one
    doc, forms = _inflated(path)
    assert forms.count == 0 and forms.stopped


def test_text_pass_leaves_out_forms_that_draw_paths_only(scatter_paper):
    """The markers are empty while the page's text is read, and back for its paths."""
    plain = _open(scatter_paper)
    doc, forms = _inflated(scatter_paper)
    markers = forms.on_page[0]
    assert len(markers) >= 2
    with forms.text_pass(0):
        assert all(doc.xref_stream(x) == b"" for x in markers)
        text = doc[0].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    assert text == plain[0].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    assert all(doc.xref_stream(x) == plain.xref_stream(x) for x in markers)
    assert doc[0].get_cdrawings(extended=True) == plain[0].get_cdrawings(extended=True)


def test_a_form_that_shows_text_is_read_in_the_text_pass(tmp_path):
    """A small form with text in it (a figure placed as a form, a stamped label) stays."""
    src = pymupdf.open()
    src.new_page(width=200, height=60).insert_text((10, 30), "Panel label inside a form", fontsize=9)
    doc = pymupdf.open()
    page = doc.new_page()
    page.show_pdf_page(pymupdf.Rect(72, 72, 272, 132), src, 0)  # the label as a Form XObject
    path = tmp_path / "form_text.pdf"
    doc.save(str(path), deflate=True)
    doc, forms = _inflated(path)
    assert forms.count >= 1  # decoded, but not left out of the text pass
    assert not forms.on_page[0]
    with forms.text_pass(0):
        assert "Panel label inside a form" in doc[0].get_text()


def _paths(entries):
    """The paths of a get_cdrawings list, without their nesting level (clips change it)."""
    return [{k: v for k, v in e.items() if k != "level"} for e in entries if e["type"] not in ("clip", "group")]


def test_path_pass_writes_markers_in_place(scatter_paper):
    """The chart's form paints its markers hundreds of times: for the path pass each marker is
    written in place, read as its path alone, not as a clip to the marker's box around it. The
    paths, their boxes, styles and paint numbers are the same; only those clips are gone."""
    plain = _open(scatter_paper)
    doc, forms = _inflated(scatter_paper)
    assert forms.painters_on[0] and all(forms.inline[x] for x in forms.on_page[0])
    before = plain[0].get_cdrawings(extended=True)
    with forms.path_pass(0):
        after = doc[0].get_cdrawings(extended=True)
    assert _paths(after) == _paths(before)
    clips = sum(e["type"] == "clip" for e in before) - sum(e["type"] == "clip" for e in after)
    assert clips >= 280  # one per marker (the fixture's 280 points and the legend's samples)
    assert doc[0].get_cdrawings(extended=True) == before  # the painter put back after


def test_text_pass_leaves_out_the_markers_paints(scatter_paper):
    plain = _open(scatter_paper)
    doc, forms = _inflated(scatter_paper)
    (painter,) = forms.painters_on[0]
    names = [name.encode() for x, name, parent, _box in plain.get_page_xobjects(0) if parent == painter]
    assert len(names) >= 2 and all(b"/%s Do" % n in plain.xref_stream(painter) for n in names)
    with forms.text_pass(0):
        assert not any(b"/%s Do" % n in doc.xref_stream(painter) for n in names)  # no marker painted
        text = doc[0].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    assert text == plain[0].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    assert doc.xref_stream(painter) == plain.xref_stream(painter)


def test_same_findings_with_markers_painted_as_forms(scatter_paper, monkeypatch):
    got = _findings(scatter_paper)
    monkeypatch.setattr(pdf_forms, "MIN_PAINTS", 10**9)  # no painter rewritten
    assert got == _findings(scatter_paper)


@pytest.mark.parametrize("content, box, ok", [
    (b"1 j 0 J\n0 -3 m\n2.1 -2.1 3 -0.8 3 0 c\nh\nB\n", (-4, -4, 4, 4), True),
    (b"0 0 m 4 4 l S", (0, 0, 4, 4), True),
    (b"[1 2] 0 d 0.5 w 0 0 4 4 re f", (0, 0, 4, 4), True),
    (b"0 -3 m 5 0 l S", (-4, -4, 4, 4), False),  # a point outside the box: the box clips it
    (b"-1 -1 6 2 re f", (-4, -4, 4, 4), False),
    (b"Q 0 0 m 1 1 l S q", (0, 0, 4, 4), False),  # a Q that would pop the painter's state
    (b"q 0 0 m 1 1 l S", (0, 0, 4, 4), False),
    (b"/GS0 gs 0 0 m 1 1 l S", (0, 0, 4, 4), False),  # a resource name
    (b"2 0 0 2 0 0 cm 0 0 m 1 1 l S", (0, 0, 4, 4), False),  # points no longer in the box's frame
    (b"0 0 m 1 l S", (0, 0, 4, 4), False),  # an operand missing
    (b"% note\n0 0 m 1 1 l S", (0, 0, 4, 4), False),
])
def test_inline_form(content, box, ok):
    got = pdf_forms.inline_form(content, box)
    assert (got is not None) == ok
    if ok:
        assert b"\n" not in got and got.split() == content.split()


def test_kept_bytes_are_let_go_page_by_page(tmp_path, monkeypatch):
    """What is kept decoded is bounded by the page being read (and the painters left decoded as
    they are): a painter on the last page is still written in place after those of the pages
    before it, where keeping every page's versions would have run out of room."""
    doc = pymupdf.open()
    for _ in range(3):
        _painted_page(doc, b"0 0 2 2 re f " * 4, "0 0 4 4")
    path = tmp_path / "three.pdf"
    doc.save(str(path))

    def read(let_go: bool) -> tuple[list[bool], int]:
        pymupdf.TOOLS.mupdf_warnings(reset=True)  # messages of building it are not the file's
        forms = FormInflater(_open(path))
        written, most = [], 0
        for i in range(3):
            forms.page(i)
            written.append(bool(forms.painters_on[i]))
            most = max(most, forms.kept)
            if let_go:
                forms.done(i)
        return written, most

    written, most = read(True)
    assert written == [True] * 3
    assert read(False)[1] > most
    monkeypatch.setattr(pdf_forms, "MAX_TOTAL_BYTES", most)
    assert read(True)[0] == [True] * 3
    assert read(False)[0][-1] is False  # never let go: the last page finds no room


def test_a_painter_on_two_pages_is_written_in_place_on_both(tmp_path):
    """A chart form placed on two pages: let go after the first, it gets its versions again on
    the second."""
    doc = pymupdf.open()
    _painted_page(doc, b"0 0 2 2 re f " * 4, "0 0 4 4")
    chart = next(x for x, name, *_ in doc.get_page_xobjects(0) if name == "C0")
    page = doc.new_page()
    page.insert_text((72, 700), "Figure 2: The same marks.", fontsize=10)
    kind, val = doc.xref_get_key(page.xref, "Resources")
    doc.xref_set_key(int(val.split()[0]) if kind == "xref" else page.xref,
                     "XObject" if kind == "xref" else "Resources/XObject", f"<</C0 {chart} 0 R>>")
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq 1 0 0 1 100 100 cm /C0 Do Q\n")
    path = tmp_path / "twice.pdf"
    doc.save(str(path))
    pymupdf.TOOLS.mupdf_warnings(reset=True)  # messages of building it are not the file's
    plain = _open(path)
    doc = _open(path)
    forms = FormInflater(doc)
    for i in range(2):
        forms.page(i)
        assert forms.painters_on[i] == [chart], i
        with forms.path_pass(i):
            assert _paths(doc[i].get_cdrawings(extended=True)) == _paths(plain[i].get_cdrawings(extended=True))
        forms.done(i)


def _painted_forms_pdf(path: Path, body: bytes, box: str, label: str = "Figure 1: Many marks.") -> str:
    """A page whose one form (a chart, as pdfTeX places one) paints a small form 100 times."""
    doc = pymupdf.open()
    _painted_page(doc, body, box, label)
    doc.save(str(path))
    doc.close()
    return str(path)


def _painted_page(doc, body: bytes, box: str, label: str = "Figure 1: Many marks.") -> None:
    """A new page of `doc` as _painted_forms_pdf makes it."""
    page = doc.new_page()
    page.insert_text((72, 700), label, fontsize=10)
    mark = doc.get_new_xref()
    doc.update_object(mark, f"<</Type/XObject/Subtype/Form/BBox[{box}]>>")
    doc.update_stream(mark, body, compress=True)
    paints = b"".join(b"1 0 0 1 %d %d cm /M0 Do\n" % (3 + (i % 10), 1 + (i % 7)) for i in range(100))
    chart = doc.get_new_xref()
    doc.update_object(chart, f"<</Type/XObject/Subtype/Form/BBox[0 0 300 300]/Resources<</XObject<</M0 {mark} 0 R>>>>>>")
    doc.update_stream(chart, b"BT /F1 1 Tf ET 0 0 1 rg 1 w\n" + paints, compress=True)
    kind, val = doc.xref_get_key(page.xref, "Resources")
    target = int(val.split()[0]) if kind == "xref" else page.xref
    doc.xref_set_key(target, "XObject" if kind == "xref" else "Resources/XObject", f"<</C0 {chart} 0 R>>")
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq 1 0 0 1 100 100 cm /C0 Do Q\n")


def test_a_mark_its_box_clips_is_painted_as_a_form(tmp_path):
    """A form whose box cuts its path keeps its paint (the box's clip is what prints)."""
    path = _painted_forms_pdf(tmp_path / "clipped.pdf", b"0 0 8 8 re f " * 4, "0 0 4 4")
    plain = _open(path)
    doc, forms = _inflated(path)
    (mark,) = forms.on_page[0]
    assert forms.inline[mark] is None and forms.painters_on[0]
    with forms.path_pass(0):
        assert doc[0].get_cdrawings(extended=True) == plain[0].get_cdrawings(extended=True)


def test_a_painter_whose_text_says_do_is_left_as_it_is(tmp_path):
    """Paints are found as bytes: a painter with a string holding "Do" is not rewritten."""
    path = _painted_forms_pdf(tmp_path / "text.pdf", b"0 0 2 2 re f " * 4, "0 0 4 4")
    doc = pymupdf.open(path)
    chart = next(x for x, name, *_ in doc.get_page_xobjects(0) if name == "C0")
    doc.update_stream(chart, b"BT /F1 1 Tf (/M0 Do) Tj ET " + doc.xref_stream(chart))
    doc.save(str(tmp_path / "text2.pdf"))
    doc, forms = _inflated(tmp_path / "text2.pdf")
    assert forms.paths_only and not forms.painters_on[0]
    doc, forms = _inflated(path)
    assert forms.painters_on[0]


def test_the_byte_precheck_covers_every_operator():
    """_paths_only skips the token search where no operator's bytes occur: every operator the
    search looks for must hold one of those bytes."""
    import re

    group = re.search(rb"\((BT\|[^)]*)\)", pdf_forms._TEXT_OR_IMAGE.pattern).group(1)
    operators = group.split(b"|") + [b"'", b'"']
    assert len(operators) >= 16
    assert all(any(b in op for b in pdf_forms._OPERATOR_BYTES) for op in operators)
    assert pdf_forms._paths_only(b"0 0 m 1 1 l S") and not pdf_forms._paths_only(b"BT /F1 9 Tf (a) Tj ET")
    assert not pdf_forms._paths_only(b"/OC /MC0 BDC 0 0 m 1 1 l S EMC")
