"""figlint.ingest.pdf: figures, captions, regions, contents and citing sites read from PDFs.

Two kinds of input: PDFs drawn with PyMuPDF (fixtures/make_pdfs.py, via the
drawn_pdfs session fixture) where every position is known, and the generated
LaTeX paper compiled with pdflatex (compiled_paper fixtures, skipped without
TeX), which gives real hyperref links and real figure placement.
"""

from __future__ import annotations

import pytest

from fixtures import make_pdfs as M

from figlint.errors import InputError
from figlint.ingest.pdf import read_pdf, render_crop


@pytest.fixture(scope="module")
def drawn(drawn_pdfs):
    return read_pdf(str(drawn_pdfs["paper"]))


def _inside(inner, outer, tol=2.0):
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


# ------------------------------------------------------------ drawn paper


def test_paper_facts(drawn):
    assert drawn.problems == []
    assert drawn.route == "pdf"
    assert drawn.pages == 3
    assert drawn.page_size == M.PAGE
    assert drawn.body_font_size == M.BODY_PT


def test_figures_numbers_pages_and_captions(drawn):
    numbered = {f.number: f for f in drawn.figures if f.number}
    assert set(numbered) == set(M.CAPTIONS)
    assert {n: f.page for n, f in numbered.items()} == {"1": 1, "2": 2, "3": 2, "A1": 3}
    for number, text in M.CAPTIONS.items():
        cap = numbered[number].caption
        assert cap.text == text
        assert cap.label == f"Figure {number}"
        assert cap.location.page == numbered[number].page


def test_figure_in_left_column_stays_in_its_column(drawn):
    fig = drawn.figure("1")
    (l0, l1), _ = M.COLS
    assert fig.bbox[0] >= l0 - 1 and fig.bbox[2] <= l1 + 1
    # the graphics region stops above the caption
    assert fig.bbox[3] <= fig.caption.location.bbox[1]


def test_spanning_figure_covers_both_columns(drawn):
    fig = drawn.figure("2")
    (l0, _), (_, r1) = M.COLS
    assert fig.bbox[0] <= M.RASTER_BOX[0] + 1 and fig.bbox[2] >= r1 - 20
    assert fig.bbox[0] < l0 + 20


def test_low_resolution_raster_uses_displayed_size(drawn):
    fig = drawn.figure("2")
    (img,) = fig.images
    assert (img.width_px, img.height_px) == M.RASTER_PX
    assert img.effective_dpi == pytest.approx(M.RASTER_DPI, rel=1e-3)
    assert img.effective_dpi < M.RASTER_META_DPI  # the PNG's own dpi claim is ignored
    assert _inside(img.bbox, M.RASTER_BOX, 0.5)


def test_tiny_text_span_size(drawn):
    fig = drawn.figure("1")
    tiny = [s for s in fig.spans if s.text == M.TINY_TEXT]
    assert tiny and tiny[0].size == pytest.approx(M.TINY_PT, abs=0.05)
    assert all(s.size >= M.TINY_PT - 0.05 for s in fig.spans)


def test_drawings_carry_style(drawn):
    fig = drawn.figure("1")
    assert fig.drawings
    strokes = {d.stroke for d in fig.drawings if d.stroke}
    assert (0.0, 0.45, 0.7) in {tuple(round(c, 2) for c in s) for s in strokes}
    assert any(d.fill for d in fig.drawings)
    assert all(d.width is None or d.width > 0 for d in fig.drawings)
    assert fig.kind == "vector"


def test_subpanels(drawn):
    fig = drawn.figure("2")
    assert [s.label for s in fig.subpanels] == ["a", "b"]
    assert fig.subpanels[0].caption == "Raw frame"
    assert fig.kind == "mixed"


def test_caption_above_figure(drawn):
    fig = drawn.figure("3")
    assert fig.bbox[1] >= fig.caption.location.bbox[3]
    assert fig.extra["caption_side"] == "above"


def test_table_is_not_a_figure(drawn):
    page1 = [f for f in drawn.figures if f.page == 1]
    assert [f.number for f in page1] == ["1"]
    assert all(M.TABLE_CAPTION not in (f.caption.text if f.caption else "") for f in drawn.figures)


def test_uncaptioned_graphics(drawn):
    loose = [f for f in drawn.figures if not f.number]
    assert len(loose) == 1
    fig = loose[0]
    assert fig.extra["uncaptioned"] is True
    assert fig.page == 2 and fig.caption is None
    assert fig.bbox[0] >= M.COLS[1][0] - 1
    assert fig.gated_dimensions() == []


def test_appendix(drawn):
    assert drawn.figure("A1").in_appendix
    assert not any(drawn.figure(n).in_appendix for n in ("1", "2", "3"))


def test_text_sites_with_sentences_and_panels(drawn):
    one = drawn.figure("1")
    assert [s.mention for s in one.sites] == ["Figure 1", "Figs. 1 and 3"]
    assert one.sites[0].sentence.startswith("Figure 1 shows that the throughput")
    assert all(s.via == "text" and s.location.page == 1 and s.location.bbox for s in one.sites)
    two = drawn.figure("2")
    (site,) = two.sites
    assert site.mention == "Fig. 2(b)" and site.panels == ["b"]
    assert site.sentence == "As Fig. 2(b) makes clear, the fitted curve tracks the raw frame closely."


def test_bare_number_found_through_link(drawn):
    three = drawn.figure("3")
    vias = sorted((s.via, s.mention) for s in three.sites)
    assert vias == [("link", "3"), ("text", "Figs. 1 and 3")]
    link = next(s for s in three.sites if s.via == "link")
    assert "as shown in 3" in link.sentence
    assert link.location.page == 1
    # the caption is not a citing site of its own figure
    assert all(M.CAPTIONS["3"] not in s.paragraph for s in three.sites)


def test_gating(drawn):
    assert len(drawn.figure("1").gated_dimensions()) == 5


def test_render_crop(drawn_pdfs, drawn):
    fig = drawn.figure("1")
    png = render_crop(str(drawn_pdfs["paper"]), fig.page, fig.bbox, dpi=72)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------ broken inputs


@pytest.mark.parametrize("kind, words", [
    ("not_pdf", "not a PDF"),
    ("truncated", "truncated"),
    ("corrupt", "corrupt"),
    ("encrypted", "encrypted"),
    ("empty", "not a PDF"),
])
def test_unreadable_inputs(drawn_pdfs, kind, words):
    with pytest.raises(InputError) as err:
        read_pdf(str(drawn_pdfs[kind]))
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_pdf(str(tmp_path / "nope.pdf"))


def test_pdf_without_figures(tmp_path):
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 700), "Plain running text without any figure. " * 60, fontsize=10)
    doc.save(tmp_path / "plain.pdf")
    paper = read_pdf(str(tmp_path / "plain.pdf"))
    assert paper.figures == [] and paper.pages == 1


# ------------------------------------------------------------ compiled LaTeX paper


@pytest.mark.parametrize("layout", ["compiled_paper", "compiled_paper_two_column"])
def test_latex_paper(request, layout):
    cp = request.getfixturevalue(layout)
    paper = read_pdf(str(cp.pdf))
    assert paper.problems == []
    facts = cp.facts
    got = {f.number: f for f in paper.figures if f.number}
    assert set(got) == set(facts["figures"])
    assert not [f for f in paper.figures if not f.number]
    for number, fact in facts["figures"].items():
        fig = got[number]
        assert fig.page == fact["page"]
        assert fig.caption.text == fact["caption"]
        assert fig.caption.label == fact["caption_label"]
        assert fig.bbox is not None
        sites = [(s.sentence, s.panels) for s in fig.sites]
        assert sites == [(s["printed"], s["panels"]) for s in fact["sites"]]
    one = got["1"]
    (img,) = one.images
    assert (img.width_px, img.height_px) == (facts["figures"]["1"]["width_px"], facts["figures"]["1"]["height_px"])
    assert img.effective_dpi == pytest.approx(facts["expected_dpi"], rel=facts["rel_tolerance"])
    tiny = [s for s in got["2"].spans if s.text == facts["tiny_text"]]
    assert tiny and tiny[0].size == pytest.approx(facts["expected_font_size"], abs=0.05)
    assert [s.label for s in got["3"].subpanels] == ["a", "b"]


def test_latex_bare_ref_is_a_link_site(compiled_paper):
    paper = read_pdf(str(compiled_paper.pdf))
    bare = [s for s in paper.figure("2").sites if s.via == "link"]
    assert len(bare) == 1
    assert bare[0].mention == "2"
    assert bare[0].sentence == "The response saturates above the threshold, as in 2."


@pytest.mark.parametrize("writer", ["write_form_placed_twice_pdf", "write_wrong_length_pdf"])
def test_what_the_reader_works_around_is_no_damage(tmp_path, writer):
    """A figure file placed twice and a stream with a wrong /Length make the library speak (it
    is asserted here, so a library that stops speaking is noticed) but lose nothing: no FL010,
    and the page reads whole."""
    import pymupdf

    from fixtures import damaged_pdf

    pdf = getattr(damaged_pdf, writer)(str(tmp_path / "paper.pdf"))
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    with pymupdf.open(pdf) as doc:
        doc[0].get_images(full=True)
        doc[0].get_text("dict")
        assert not doc.is_repaired
    assert pymupdf.TOOLS.mupdf_warnings(reset=True)
    paper = read_pdf(pdf)
    assert [p.code for p in paper.problems if p.code == "FL010"] == []
    fig = paper.figure("1")
    assert fig is not None and fig.caption.text.startswith("Accuracy against")
    assert fig.drawings


def test_mupdf_complaints_never_reach_stdout(tmp_path):
    """MuPDF's "unknown colorspace" messages become one FL010 finding; JSON and SARIF stay clean."""
    import json
    import os
    import subprocess
    import sys

    from fixtures.damaged_pdf import write_bad_colorspace_pdf

    pdf = write_bad_colorspace_pdf(str(tmp_path / "bad.pdf"))
    env = {**os.environ, "CI": "true"}
    for fmt in ("json", "sarif"):
        proc = subprocess.run([sys.executable, "-m", "figlint", pdf, "--format", fmt, "--no-cache"],
                              capture_output=True, text=True, timeout=300, env=env)
        assert proc.stdout.lstrip().startswith("{"), proc.stdout[:200]
        doc = json.loads(proc.stdout)  # the whole of stdout is one JSON document
        text = json.dumps(doc)
        assert "FL010" in text and "colorspace" in text, fmt
    paper = read_pdf(pdf)
    assert [p.code for p in paper.problems].count("FL010") == 1
    assert paper.figure("1") is not None


def _compile(folder):
    """main.tex in `folder`, compiled twice with pdflatex (references resolved)."""
    import subprocess

    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)


def _plot_png(folder):
    from PIL import Image

    Image.new("RGB", (400, 300), (90, 140, 200)).save(folder / "plot.png")


def _raw_line(text, bbox, size):
    return {"bbox": bbox, "dir": (1.0, 0.0), "spans": [{"text": text, "size": size, "font": "Helvetica", "flags": 0,
                                                       "color": 0, "bbox": bbox, "origin": (bbox[0], bbox[3])}]}


def test_a_printed_line_split_by_a_raised_math_piece_is_one_line():
    """MuPDF gives a math accent (\\hat F) and the text after it lines of their own that start a
    little higher: read in the order of their tops, the caption line broke after 'of'. One row,
    pieces that nearly touch, is one line and the accent glyph goes; a gutter of review line
    numbers (small type, a gap wider than it) stays apart from the text beside it."""
    from figlint.ingest.pdf_layout import _lines_of_block

    block = {"lines": [
        _raw_line("Figure 2. The plot of", (51.9, 236.7, 104.8, 243.3), 6.6),
        _raw_line("\u02c6", (112.2, 234.6, 116.2, 241.5), 7.0),
        _raw_line("F ST calculated in windows", (106.7, 236.3, 555.7, 244.3), 6.6),
        _raw_line("181", (35.0, 338.7, 43.1, 343.5), 4.8),
        _raw_line("(ii) A run-in heading", (53.1, 330.2, 140.0, 345.0), 11.9),
    ]}
    lines = [ln.text for ln in _lines_of_block(0, 0, block)]
    assert "Figure 2. The plot of F ST calculated in windows" in lines, lines
    assert "181" in lines and not any("\u02c6" in t for t in lines), lines


def test_prefixed_and_punctuated_figure_numbers_on_both_routes(tmp_path, pdflatex):
    """An online appendix numbered 'OA-1', 'OA-2' (\\renewcommand\\thefigure{OA-\\arabic{figure}})
    and a class that prints 'Figure 3.:': the printed captions are read as captions, the routes
    agree (no FL008), and a typed 'Figure OA-2' is a mention of that figure (FL305)."""
    from figlint.config import Config
    from figlint.engine import lint_path
    from figlint.mentions import parse_float_label

    assert parse_float_label("Figure 3.: The merged map")[1:3] == ("Figure 3", "3")
    fig = ("\\begin{figure}[h]\\centering\\rule{3cm}{2cm}\\caption{%s appendix figure with a caption long "
           "enough to stand alone.}\\label{fig:%s}\\end{figure}\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nThe text cites Figure~\\ref{fig:a}, the typed Figure OA-2 "
        "and Figure~\\ref{fig:b} again.\n\\appendix\n\\setcounter{figure}{0}\n"
        "\\renewcommand{\\thefigure}{OA-\\arabic{figure}}\n" + fig % ("First", "a") + fig % ("Second", "b")
        + "\\end{document}\n")
    _compile(tmp_path)
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    assert [(f.number, f.caption.label) for f in pdf.figures] == [("OA-1", "Figure OA-1"), ("OA-2", "Figure OA-2")]
    result = lint_path(str(tmp_path / "main.tex"), Config(select=["ALL"]))
    codes = sorted((f.code, f.figure) for f in result.findings if f.code in ("FL008", "FL305"))
    assert codes == [("FL305", "OA-2")], codes


def test_a_plain_caption_label_against_its_graphic(tmp_path, pdflatex):
    """A thesis style prints 'Fig. 1.1 Time evolution ...': body size, body font, only a space
    after the number. Set right under the graphic it opens the caption; the same words
    starting a sentence of the running text do not."""
    _plot_png(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{report}\n\\usepackage{graphicx}\n\\usepackage[labelsep=space,font=normalsize]{caption}\n"
        "\\renewcommand{\\figurename}{Fig.}\n\\begin{document}\n\\chapter{Growth}\n"
        "The colonies grow as Fig.~\\ref{fig:a} shows, and they fold when the medium dries out late.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{Time evolution of the colony radius over the "
        "first three days of growth.}\\label{fig:a}\\end{figure}\n"
        "Fig. 1.1 Shows nothing more: a sentence that starts with a typed number in the running text.\n"
        "\\end{document}\n")
    _compile(tmp_path)
    figs = read_pdf(str(tmp_path / "main.pdf")).figures
    assert [(f.number, f.caption.text.split()[:3]) for f in figs] == [("1.1", ["Time", "evolution", "of"])]


def test_a_plain_caption_label_under_lettered_panels(tmp_path, pdflatex):
    """The same thesis style under a grid of sub-figures: their letters "(a)".."(d)" stand
    between the graphics and the caption, which is more than two lines below the images but
    directly under the letters. It opens the caption (a thesis lost 4 of 21 figures)."""
    _plot_png(tmp_path)
    sub = ("\\begin{subfigure}{0.45\\linewidth}\\centering\\includegraphics[width=\\linewidth]{plot.png}"
           "\\caption{}\\end{subfigure}")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{report}\n\\usepackage{graphicx}\n\\usepackage[labelsep=space,font=normalsize]{caption}\n"
        "\\usepackage{subcaption}\n\\renewcommand{\\figurename}{Fig.}\n\\begin{document}\n\\chapter{Growth}\n"
        "The colonies grow as Fig.~\\ref{fig:a} shows, and they fold when the medium dries out late.\n"
        "\\begin{figure}[h]\\centering " + sub + "\\hfill " + sub + "\\\\[4pt]" + sub + "\\hfill " + sub +
        "\\caption{Overview of the colonies on four days of growth.}\\label{fig:a}\\end{figure}\n"
        "\\end{document}\n")
    _compile(tmp_path)
    figs = read_pdf(str(tmp_path / "main.pdf")).figures
    assert [(f.number, f.caption.text.split()[:3]) for f in figs if f.number] == [("1.1", ["Overview", "of", "the"])]


def test_supporting_information_after_the_references_is_running_text(tmp_path, pdflatex):
    """A supplement set after the bibliography under 'Supporting Information' (sections
    'S1: ...'): its sentences cite its figures ('Figure S1'); they were skipped as references."""
    _plot_png(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\nMain text of the paper, with a "
        "sentence long enough to be a paragraph of running text \\cite{k}.\n"
        "\\begin{thebibliography}{9}\\bibitem{k} A. Author. A title. A journal, 2020.\\end{thebibliography}\n"
        "\\section*{Supporting Information}\n\\subsection*{S1: Sensitivity analysis}\n"
        "\\setcounter{figure}{0}\\renewcommand{\\thefigure}{S\\arabic{figure}}\n"
        "We varied the encounter rate over five values, and Figure~\\ref{fig:s} shows how the threshold moves.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{Threshold against the "
        "encounter rate for five runs of the model.}\\label{fig:s}\\end{figure}\n\\end{document}\n")
    _compile(tmp_path)
    (fig,) = read_pdf(str(tmp_path / "main.pdf")).figures
    assert fig.number == "S1" and [s.mention for s in fig.sites] == ["Figure S1"], [s.mention for s in fig.sites]


def test_a_double_spaced_caption_keeps_its_lines_past_tall_maths(tmp_path, pdflatex):
    """A double-spaced manuscript (revtex preprint, setspace): a caption line with a root or a
    raised exponent at its top stands farther below the line above than the usual gap, but its
    baseline keeps the caption's pitch; the caption goes on to its last line."""
    _plot_png(tmp_path)
    words = " ".join(f"word{k}" for k in range(12))
    (tmp_path / "main.tex").write_text(
        "\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n\\usepackage{setspace}\n\\doublespacing\n"
        "\\usepackage{caption}\n\\captionsetup{font={stretch=1.9}}\n"
        "\\begin{document}\n" + ("Body text of the paper set double spaced, as a manuscript is. " * 12) + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\n"
        "\\caption{Spreading diameter against the impact parameter " + words + " compensated by "
        "$\\sqrt{\\frac{A^{2^{2}}}{B}}$ for visibility " + words + " and scaled by $Re^{1/5}$ " + words +
        " with the final words last line here.}\\label{fig:a}\\end{figure}\n"
        + ("More body text follows the float, at the usual spacing of the manuscript. " * 8) + "\n\\end{document}\n")
    _compile(tmp_path)
    (fig,) = [f for f in read_pdf(str(tmp_path / "main.pdf")).figures if f.number]
    assert fig.caption.text.rstrip(".").endswith("final words last line here"), fig.caption.text[-80:]


def test_figures_on_a_page_follow_numbering_order():
    """Figures of one page are listed in numbering order, each part a number: 3.9 before
    3.10 and the chapter-dash 4-9 before 4-10 (as strings they sorted the other way, and
    FL303 then said 4-10 was cited out of order)."""
    from figlint.ingest.pdf import number_order

    assert sorted(["4-10", "4-9", "3.10", "3.9", "A10", "A2", "2", "10"], key=number_order) == \
        ["2", "3.9", "3.10", "4-9", "4-10", "10", "A2", "A10"]


def test_a_label_alone_over_a_caption_in_capitals(tmp_path, pdflatex):
    """IEEEtran's older compsoc figures: "Fig. 1" alone on a centred line, the caption below it
    in capitals set smaller ("SHIP INPUTS AND ACTIONS."). The capitals are the caption."""
    _plot_png(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n"
        "\\DeclareCaptionTextFormat{up}{\\MakeUppercase{#1}}\n\\DeclareCaptionFont{capsize}{\\fontsize{6.4}{7.6}\\selectfont}\n"
        "\\captionsetup{labelsep=newline,justification=centering,labelfont=footnotesize,textfont=capsize,"
        "textformat=up,figurename=Fig.}\n\\begin{document}\n"
        "The ship's inputs are listed in Fig.~\\ref{fig:a}, together with the actions they map to.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{Ship inputs and actions of the "
        "game, with the distance map weighted by the lava term over the whole level.}\\label{fig:a}\\end{figure}\n"
        "\\end{document}\n")
    _compile(tmp_path)
    (fig,) = [f for f in read_pdf(str(tmp_path / "main.pdf")).figures if f.number]
    assert fig.caption.text.startswith("SHIP INPUTS AND ACTIONS") and fig.caption.text.rstrip(".").endswith("LEVEL"), \
        fig.caption.text


def test_a_caption_stops_where_the_next_graphic_begins(tmp_path, pdflatex):
    """Two figures stacked in one float: the second graphic (an included PDF whose labels are
    text, set at its top edge) starts right under the first caption. Its labels ("TC1 TC2")
    are its own text, not the end of the caption above."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=200, height=80)
    for k, x in enumerate((20, 80, 140)):
        page.insert_text((x, 12), f"TC{k + 1}", fontsize=9)
        page.draw_rect(pymupdf.Rect(x - 5, 18, x + 40, 70), color=(0, 0, 0))
    doc.save(tmp_path / "boxes.pdf")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "The two setups are shown in Figure~\\ref{fig:a} and Figure~\\ref{fig:b} for comparison.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{boxes.pdf}\\caption{A BYOD example.}\\label{fig:a}\n"
        "\\vspace{-4pt}\\includegraphics[width=5cm]{boxes.pdf}\\caption{A cloud computing example.}\\label{fig:b}"
        "\\end{figure}\n\\end{document}\n")
    _compile(tmp_path)
    figs = [f for f in read_pdf(str(tmp_path / "main.pdf")).figures if f.number]
    assert [(f.number, f.caption.text) for f in figs] == [("1", "A BYOD example."), ("2", "A cloud computing example.")]
