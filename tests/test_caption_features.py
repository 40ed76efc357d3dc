"""The legend and panel features (vector and raster) and the caption readers of FL204/FL206/FL207."""

from __future__ import annotations

import pytest

from fixtures import cases_caption as cc
from fixtures.charts import draw_chart
from figlint.rules.caption import caption_numbers, caption_panels, caption_verdict, names_formal_object, norm_words, number_shown


def _analysis(tmp_path, name: str, ext: str):
    from figlint.features import analyses
    from figlint.ingest.graphics import read_graphics

    path = tmp_path / f"{name}.{ext}"
    draw_chart(cc.CHARTS[name], path)
    paper = read_graphics(str(path))
    return analyses(paper.figures[0], paper)[0]


@pytest.mark.parametrize("ext", ["pdf", "png"])
def test_legend_entries_styles_and_colours(tmp_path, ext):
    an = _analysis(tmp_path, "cap_models", ext)
    got = [(e.text, e.style) for e in an.get("legend")]
    assert got == [("ResNet-50", "solid"), ("ViT-B/16", "dashed"), ("MLP-Mixer", "dotted"), ("random", "marker")]
    first = an.get("legend")[0]
    assert first.colour is not None and abs(first.colour[2] - 0.706) < 0.05  # matplotlib's C0 blue
    assert {"text", "colour", "style", "bbox"} <= set(first.to_dict())


def test_legend_patches(tmp_path):
    an = _analysis(tmp_path, "cap_bars", "pdf")
    assert [(e.text, e.style) for e in an.get("legend")] == [("ours", "patch"), ("BERT", "patch")]


def test_no_legend_without_swatches(tmp_path):
    assert _analysis(tmp_path, "cap_hist", "pdf").get("legend") == []


@pytest.mark.parametrize("name,texts,standalone", [
    ("cap_panels", ["(a)", "(b)"], True),
    ("cap_panels_bare", ["A", "B"], True),
    ("cap_panels_titled", ["(a)", "(b)"], False),
    ("cap_bars", [], None),  # category ticks are not panels
])
def test_panel_labels(tmp_path, name, texts, standalone):
    an = _analysis(tmp_path, name, "pdf")
    panels = an.get("panels")
    assert [p.text for p in panels] == texts
    if texts:
        assert all(p.standalone is standalone for p in panels)


def test_caption_panels():
    assert caption_panels("(a) Loss and (b) accuracy; (c) schedule.") == {"a", "b", "c"}
    assert caption_panels("Panels (a-c) show runs; panel d the mean.") == {"a", "b", "c", "d"}
    assert caption_panels("Latency (s) over time (in seconds).") == set()
    # keys opening the caption's sentences, and panels named by the figure's own number
    assert caption_panels("Runtime. A: Time on set one. B & C: Memory. E\u2013H: Same as A\u2013D.") == set("abcefgh")
    assert caption_panels("Runs. a, Loss. b-d, Accuracy in three cases.") == {"a", "b", "c", "d"}
    assert caption_panels("Runs on a GPU. A Compile time. B Kernel time. C Memory.") == {"a", "b", "c"}
    assert caption_panels("A Gaussian fit to the counts. The fit is poor.") == set()
    # beside parenthesised keys, a sentence 'f: ...' keys a label drawn in a panel, not a panel
    assert caption_panels("(a) Colony. (b) A single cell. f: flagellum. n: nucleus.") == {"a", "b"}
    # an abbreviation in parentheses is no panel key: the caption's keys are its sentence keys
    assert caption_panels("Runs under Control (C). A: Loss. B: Accuracy.") == {"a", "b"}
    assert caption_panels("Response. Figure 10a shows amplitude, Fig. 10b frequency, as Fig. 3c.", "10") == {"a", "b"}
    assert caption_panels("Response. Figure 10a shows amplitude.") == set()
    # the own number followed by a letter is a panel only after the figure word: "a 3d view"
    assert caption_panels("Test data (see Fig. 4 for a 3d representation), fits in 2D.", "3") == set()
    # a subscript or superscript letter closing a parenthesis is no key: "(below the cut-off f_c)"
    assert caption_panels("Power spectra (below the cut-off frequency f_c). Next runs.") == set()
    assert caption_panels("Spectra (scaled by 10^b). Then c) the fit.") == {"c"}


def test_caption_numbers_skip_names_settings_ranges():
    text = (r"Our model reaches 87.5\% F1 on CIFAR-10 (2020) [3], lr = 0.001, learning rate 0.01, "
            r"in 0.2-0.8, 85.3 $\pm$ 0.4, 2.1x faster, Fig. 3.2, 12 seeds, 95\% CI, 10\% of the data, "
            "the shaded mode (\u00a77.1), \u00a7\u00a7 4.2")
    got = [n["text"] for n in caption_numbers(text)]
    assert got == ["87.5%", "2.1x"]


def test_caption_numbers_skip_levels_quantities_bounds_and_derived():
    # settings of the analysis and statistics derived from the data (field audit, FL207), each
    # beside a measured value that is still read
    text = (r"Shaded bands are 68\% (95\%) errors over 200 runs at 4.5\,K; contours mark the 95\% highest-density "
            r"region; runs with $\alpha=0$ (left) and 0.35 (right); bins Low [0.1; 2.5[, High [2.5; 9.0[; the gain "
            r"is significant (0.01 $\le p$) at 3.1$\sigma$, about 12$\times$ faster at the largest size; the mean "
            r"gap is 1.7 over all tasks; the 2.5\,$\mu$m band of a 1.4 M$_\odot$ star folded at 3.27 hr; tilt "
            r"$\theta = -12.5^\circ \pm 0.3^\circ$. Our model reaches 87.5\% F1, 2.1x faster than the baseline.")
    got = [n["text"] for n in caption_numbers(text)]
    assert got == ["87.5%", "2.1x"]
    # the PDF's text of the same kinds: glued unit symbols, Unicode minus and degree signs
    pdf = "a 9.6 M\u2299progenitor; inclination I = \u221269.3\u25e6\u00b1 0.1\u25e6; \u223c93\u00d7 better; 92.4% F1"
    assert [n["text"] for n in caption_numbers(pdf)] == ["92.4%"]


def test_caption_numbers_skip_equation_numbers_of_chapter_numbered_figures():
    # equation numbers and a coordinate tuple are not values
    assert caption_numbers("A plane wave synthesized by WFS (2.55) at x = (4.5, -2, 0) m.", "3.8") == []
    assert [n["value"] for n in caption_numbers("Driven by (2.55); the peak is at 3.85.", "3.8")] == [3.85]
    # a figure numbered 1, 2, ...: a decimal in parentheses is read
    assert [n["value"] for n in caption_numbers("Driven by (2.55).", "8")] == [2.55]
    # an equation from a later chapter is not this figure's
    assert [n["value"] for n in caption_numbers("Driven by (4.55).", "3.8")] == [4.55]


def test_number_shown_rounding_percent_and_differences():
    nums = [(85.31, 2), (0.781, 3), (80.2, 1)]
    labels = nums
    assert number_shown({"value": 85.3, "decimals": 1, "percent": True, "ratio": False}, nums, labels)
    assert number_shown({"value": 78.1, "decimals": 1, "percent": True, "ratio": False}, nums, labels)
    assert number_shown({"value": 5.1, "decimals": 1, "percent": False, "ratio": False}, nums, labels)
    assert not number_shown({"value": 87.5, "decimals": 1, "percent": True, "ratio": False}, nums, labels)


def test_formal_object_captions():
    def formal(text):
        return names_formal_object(text, caption_verdict(text)[2])

    assert formal("Typing rules.")
    assert formal("The interval [1\u2205, 12(0,1)] of M.")  # named in its notation
    assert not formal("Overview of the rules.")
    assert not formal("Confidence intervals.")  # a data figure's interval, no notation
    assert not formal("Targeting rules.")  # policy rules compared in a data figure
    assert formal("Rules for \u0393 \u22a2 e : \u03c4.")
    assert not formal("Overview of our method.")


def test_norm_words():
    words = set(norm_words(r"Top-1 \textbf{Acc.} of ResNet-50 models"))
    assert {"top1", "accuracy", "resnet50", "model"} <= words


def test_rules_never_raise_on_odd_figures():
    from figlint.model import Caption, Figure, Paper
    from figlint.rules.registry import Context, get_rule

    paper = Paper(path="x.pdf", route="pdf")
    for fig in (Figure(number="1", caption=Caption(text="(c) 12.5% of $x$")),
                Figure(number="2", caption=Caption(text="\\"), graphics=["missing.pdf"]),
                Figure(number="3")):
        for code in ("FL204", "FL206", "FL207"):
            r = get_rule(code)
            assert list(r.check(fig, Context(r, paper, {})) or []) == []


def test_a_function_s_last_argument_is_not_a_panel_key():
    """"(a) f(x, c) and (b) f(x, c)": the c closing f's parenthesis is an argument (field audit:
    a fractal paper's captions reported as naming a panel c its figure lacks); a key standing on
    its own, "c) the mix", still counts."""
    from figlint.rules.caption import caption_panels

    assert caption_panels("Slices of the set: (a) f(x, c) and (b) g(x, c) for two values.") == {"a", "b"}
    assert caption_panels("Results: a) the control, b) the treated, c) the mix.") == {"a", "b", "c"}
    assert caption_panels("The flow (see panel a) and its mean; b) the variance.") == {"a", "b"}
    assert caption_panels("Maps of the flow (top: a), (bottom: b).") == {"a", "b"}  # asides, not arguments
