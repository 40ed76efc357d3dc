"""figlint.mentions: printed figure mentions, caption labels and sentence cuts."""

from __future__ import annotations

import pytest

from figlint.mentions import (
    find_mentions,
    normalize_number,
    parse_caption_label,
    parse_float_label,
    sentence_at,
    sentence_spans,
)


@pytest.mark.parametrize(
    "text, mention, numbers, panels",
    [
        ("as shown in Figure 3 here", "Figure 3", ["3"], {}),
        ("see Fig. 3 for details", "Fig. 3", ["3"], {}),
        ("see Fig 3 for details", "Fig 3", ["3"], {}),
        ("Figs. 3 and 4 show", "Figs. 3 and 4", ["3", "4"], {}),
        ("Figures 2, 3, and 5 are", "Figures 2, 3, and 5", ["2", "3", "5"], {}),
        ("Figure 3(b) shows", "Figure 3(b)", ["3"], {"3": ["b"]}),
        ("Fig. 3b shows", "Fig. 3b", ["3"], {"3": ["b"]}),
        ("Figs. 3a-c show", "Figs. 3a-c", ["3"], {"3": ["a", "b", "c"]}),
        ("Figures 2-4 show", "Figures 2-4", ["2", "3", "4"], {}),
        ("Figures 2\u20134 show", "Figures 2\u20134", ["2", "3", "4"], {}),
        ("Figures 2 to 4 show", "Figures 2 to 4", ["2", "3", "4"], {}),
        ("Figure S1 shows", "Figure S1", ["S1"], {}),
        ("Figure A.2 shows", "Figure A.2", ["A.2"], {}),
        ("Figure A2 shows", "Figure A2", ["A2"], {}),
        ("Figures A1\u2013A3 show", "Figures A1\u2013A3", ["A1", "A2", "A3"], {}),
        ("the figure 3 in the text", "figure 3", ["3"], {}),
        ("Figs. 3(a) and (b) show", "Figs. 3(a) and (b)", ["3"], {"3": ["a", "b"]}),
        ("Figure 3(a)\u2013(c) show", "Figure 3(a)\u2013(c)", ["3"], {"3": ["a", "b", "c"]}),
        ("Figs. 2a and 3b show", "Figs. 2a and 3b", ["2", "3"], {"2": ["a"], "3": ["b"]}),
        ("FIG. 2 shows", "FIG. 2", ["2"], {}),
        ("Figure\u00a03 shows", "Figure\u00a03", ["3"], {}),
        ("Figure~3 shows", "Figure~3", ["3"], {}),
        ("Figure 3.2 shows", "Figure 3.2", ["3.2"], {}),
        ("as in Figure 3. Then we", "Figure 3", ["3"], {}),
        ("Figure 3 (left) shows", "Figure 3", ["3"], {}),
    ],
)
def test_find_mentions(text, mention, numbers, panels):
    found = find_mentions(text)
    assert len(found) == 1
    m = found[0]
    assert m.text == mention
    assert text[m.start:m.end] == mention
    assert m.numbers == numbers
    assert m.panels == panels


@pytest.mark.parametrize(
    "text",
    ["the figure shows three bars", "we configure 3 nodes", "Subfigure 3 is odd", "a figurehead 3", "Table 3 lists"],
)
def test_no_mention(text):
    assert find_mentions(text) == []


def test_singular_label_does_not_take_a_following_number():
    (m,) = find_mentions("In Figure 3, 80 users took part.")
    assert m.numbers == ["3"]


def test_two_mentions_in_one_sentence():
    found = find_mentions("Fig. 2 and Fig. 3 agree.")
    assert [m.numbers for m in found] == [["2"], ["3"]]


def test_lists_joined_in_other_languages():
    known = {"4-31", "4-32", "2"}
    (m,) = find_mentions("en las figuras 4-31 y 4-32 las funciones", known)
    assert m.numbers == ["4-31", "4-32"]
    (m,) = find_mentions("in den Abbildungen 2 und 3 sieht man", known)
    assert m.numbers == ["2", "3"]
    # "en" (Spanish "in") and "of" do not continue a list
    assert find_mentions("como la figura 2 en 2019 mostraba", known)[0].numbers == ["2"]
    assert find_mentions("Figure 2 of 5 panels", known)[0].numbers == ["2"]


def test_a_prefix_set_off_by_a_space_when_the_paper_prints_such_numbers():
    # "Fig. SI 6" (`SI\,\arabic{figure}`): read where the paper has figure SI 6, not elsewhere
    known = {"SI6", "SI3", "SI4", "1"}
    assert [m.numbers for m in find_mentions("as in Fig. SI 6 and Figs. SI 3 and SI 4 we see", known)] == \
        [["SI 6"], ["SI 3", "SI 4"]]
    assert find_mentions("as in Fig. SI 6 we see", {"1"}) == []


def test_a_range_of_chapter_or_prefixed_numbers_names_every_figure_in_it():
    # field audit: a thesis's "figures 3.6 to 3.8" (cleveref) named 3.6 and 3.8 only, and
    # "Figs. SI 4–SI 6" lost its end; numbers of two series are still just the two ends
    known = {"3.6", "3.7", "3.8", "SI4", "SI5", "SI6"}
    assert [m.numbers for m in find_mentions("figures 3.6 to 3.8 show it", known)] == [["3.6", "3.7", "3.8"]]
    assert [m.numbers for m in find_mentions("Figs. SI 4\u2013SI 6 show it", known)] == [["SI 4", "SI 5", "SI 6"]]
    assert [m.numbers for m in find_mentions("Figs. A1-A3 show it")] == [["A1", "A2", "A3"]]
    assert [m.numbers for m in find_mentions("Figures 3.6 to 4.2 show it")] == [["3.6", "4.2"]]
    assert [m.numbers for m in find_mentions("Figures 3.6 and 3.8 show it", known)] == [["3.6", "3.8"]]


def test_a_range_whose_end_drops_the_prefix_of_its_start_names_every_figure_in_it():
    # field audit: a population-genetics manuscript's "figure S1-4" and "figure S5-8" read as S1
    # and main Figure 4, so S2, S3 (and S6-S8) were reported uncited on the PDF route
    def nums(text, known=None):
        return [m.numbers for m in find_mentions(text, known)]
    assert nums("(figure S1-4)") == [["S1", "S2", "S3", "S4"]]
    assert nums("(figures S5–8)") == [["S5", "S6", "S7", "S8"]]
    assert nums("Figs. S1--4 show") == [["S1", "S2", "S3", "S4"]]
    assert nums("Figs. A2-5 show") == [["A2", "A3", "A4", "A5"]]
    assert nums("Figs. A.2-4 show") == [["A.2", "A.3", "A.4"]]
    assert nums("Figures 2.3-5 show") == [["2.3", "2.4", "2.5"]]
    assert nums("Figs. SI 4-6 show", {"SI4", "SI5", "SI6"}) == [["SI 4", "SI 5", "SI 6"]]
    assert nums("Figs. S1-4 and 7 show") == [["S1", "S2", "S3", "S4", "7"]]
    # a panel on the range's end is the last figure's, prefix and all
    (m,) = find_mentions("Figs. S1-4a show")
    assert m.numbers == ["S1", "S2", "S3", "S4"] and m.panels == {"S4": ["a"]}
    # as before: the prefix printed twice, a plain range, a joined number the paper has
    assert nums("Figures S1–S4 show") == [["S1", "S2", "S3", "S4"]]
    assert nums("Figures 1-4 show") == [["1", "2", "3", "4"]]
    assert nums("Figure S1-4 shows", {"S1-4"}) == [["S1-4"]]
    # not a range: a word after the dash, "to" between two figures, an end below the start,
    # the figure word repeated, a page range later, panels on the start
    assert nums("a Figure S1-style plot") == [["S1"]]
    assert nums("compare Figure S1 to 4") == [["S1", "4"]]
    assert nums("Figure 3.2-1 shows") == [["3.2", "1"]]
    assert nums("Fig. S1 – Fig. 4 show") == [["S1", "4"]]
    assert nums("Figure S1, pp. 3-4") == [["S1"]]
    assert nums("Fig. S1a-c shows") == [["S1"]]


def test_the_supplements_figures_are_this_papers_when_it_prints_them():
    from figlint.mentions import external_mention

    def ext(text, known):
        (m,) = find_mentions(text, known)
        return external_mention(text, m.start, m.end, m.numbers, known)

    # a supplement appended to the same PDF: its S-numbered figures are the paper's own
    assert ext("Supplementary Fig. S1 shows the raw counts", {"1", "2", "S1"}) is False
    assert ext("see Figure S2 in the Supplementary Material", {"1", "S2"}) is False
    # a prefix set off by a thin space (`SI\\,\\arabic{figure}`)
    assert ext("in the Supporting Information Figs. SI 4\u2013SI 5.", {"1", "SI4", "SI5"}) is False
    assert ext("in the Supporting Information Fig. 4.", {"4", "SI4"}) is True
    # a supplement printed elsewhere, or a number of the main series under a supplement's name
    assert ext("Supplementary Fig. S1 shows the raw counts", {"1", "2"}) is True
    assert ext("see Figure 2 in the Supplementary Material", {"2", "S2"}) is True


@pytest.mark.parametrize(
    "text, label, number, rest",
    [
        ("Figure 3: A caption.", "Figure 3", "3", "A caption."),
        ("Fig. 3. Caption text", "Fig. 3", "3", "Caption text"),
        ("Figure 3. Caption text", "Figure 3", "3", "Caption text"),
        ("Figure S1: Supplementary view", "Figure S1", "S1", "Supplementary view"),
        ("Figure A.2: Appendix plot", "Figure A.2", "A.2", "Appendix plot"),
        ("FIGURE 3 Caption in capitals", "FIGURE 3", "3", "Caption in capitals"),
        ("Figure 3 | Nature style", "Figure 3", "3", "Nature style"),
        ("Figure 3 \u2013 en dash style", "Figure 3", "3", "en dash style"),
        # a period and an em dash (AASTeX 5 and other older journal styles), run together or not
        ("Fig. 3.\u2014 The rotation period", "Fig. 3", "3", "The rotation period"),
        ("FIG. 12.\u2014The rotation period", "FIG. 12", "12", "The rotation period"),
        ("Figure 3. \u2014 A caption", "Figure 3", "3", "A caption"),
        ("Figure 3", "Figure 3", "3", ""),
        ("Fig. 12:", "Fig. 12", "12", ""),
    ],
)
def test_parse_caption_label(text, label, number, rest):
    assert parse_caption_label(text) == (label, number, rest)


@pytest.mark.parametrize("text", ["Figure 3 shows the trend", "Table 3: Results", "See Figure 3.", "Figures 3 and 4:"])
def test_not_a_caption(text):
    assert parse_caption_label(text) is None


def test_tables_are_floats_but_not_figures():
    assert parse_float_label("Table 3: Results on the test set.") == ("table", "Table 3", "3", "Results on the test set.")
    assert parse_float_label("Algorithm 1: Training loop")[0] == "algorithm"


def test_normalize_number():
    assert normalize_number("A.2") == normalize_number("A2") == "A2"
    assert normalize_number("3.2") == "3.2"
    assert normalize_number(" 7 ") == "7"


def test_sentences_do_not_break_at_abbreviations():
    text = ("We follow Smith et al. (2020) closely. See Fig. 3 for the e.g. case. "
            "J. Doe built it! The result is in Figure 3. The end.")
    sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
    assert sentences == [
        "We follow Smith et al. (2020) closely.",
        "See Fig. 3 for the e.g. case.",
        "J. Doe built it!",
        "The result is in Figure 3.",
        "The end.",
    ]
    assert sentence_at(text, text.index("Fig. 3")) == "See Fig. 3 for the e.g. case."


def test_a_parenthesis_after_a_sentence_end_belongs_to_that_sentence():
    # "... rises quickly. (Figure 3(A))." cites Figure 3 for the claim before it: on its own
    # the site's sentence held no word of that claim (field papers, binding against .aux)
    text = "The curve rises quickly. (Figure 3(A)). Then it falls. (a) and (b) differ in Fig. 2."
    assert sentence_at(text, text.index("Figure 3")) == "The curve rises quickly. (Figure 3(A))."
    assert sentence_at(text, text.index("Fig. 2")) == "(a) and (b) differ in Fig. 2."
    # a paragraph that opens with one keeps it as its own sentence
    assert sentence_at("(Figure 3). Then it falls.", 1) == "(Figure 3)."


def test_a_dot_inside_brackets_left_open_ends_no_sentence():
    # "(see. Fig. 2.2)." (a thesis, binding against .aux): the stray dot inside the parenthesis
    # split the citing sentence into "... times (see." and "Fig. 2.2)."
    text = "These are the contact times (see. Fig. 2.2). The total duration follows. Then [cf. Fig. 3] it ends."
    assert sentence_at(text, text.index("Fig. 2.2")) == "These are the contact times (see. Fig. 2.2)."
    sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
    assert sentences[1] == "The total duration follows."
    # a closing bracket alone does not join: an enumerator after a full sentence ("2) ...")
    # and a sentence whose bracket the one before never opened stay apart
    text = "First we read it. 2) Then we write. Smile :) here. Next one."
    assert [text[a:b].strip() for a, b in sentence_spans(text)] == [
        "First we read it.", "2) Then we write.", "Smile :) here.", "Next one."]
    # a bracket opened and never closed joins only the next sentence, not every later one
    text = "A typo (here. Then b) one. And c) two."
    assert [text[a:b].strip() for a, b in sentence_spans(text)] == ["A typo (here. Then b) one.", "And c) two."]


def test_abbreviations_joined_to_a_word_do_not_break_sentences():
    # "App. H/Fig. A5" (value-profiles): the abbreviation follows a slash, not a space
    text = "Demographics help (cf. App. H/Fig. A5). See (Fig. 2) too. It ends here2. Next one."
    sentences = [text[a:b].strip() for a, b in sentence_spans(text)]
    assert sentences == ["Demographics help (cf. App. H/Fig. A5).", "See (Fig. 2) too.", "It ends here2.", "Next one."]


@pytest.mark.parametrize("text, external", [
    ("as the ratio grows (Supp Fig. 5), the split holds", True),
    ("Supplementary Figure 5 shows the raw counts", True),
    ("the SI Figure 3 lists every run", True),
    ("Their Figure 3 shows a different model", True),
    ("read off Figure 2 in the paper \\cite{k20}; then", True),
    ("read off Figure 2 in the paper [12]; then", True),  # the same, as printed
    ("Figure 4 of Smith et al. uses another scale", True),
    ("[3], Figure 5 uses another scale", True),
    # an author-year citation in the same parentheses
    ("of colliding with it (Kratter & Perets 2012, Fig. 7), although", True),
    ("as modelled before (see Smith et al. 2019, Figure 3) for the disc", True),
    ("as modelled before (Jones 2018; Smith 2019, Fig. 2) for the disc", True),
    # a pinpoint in the citation's own brackets, as natbib and numeric styles print a note
    ("as modelled before (Smith et al., 2019, Fig. 2) for the disc", True),
    ("as modelled before (Smith and Lee, 2019, Fig. 2) for the disc", True),
    ("as Smith et al. (2019, Fig. 2) showed for the disc", True),
    ("as modelled before [Smith et al., 2019, Fig. 2] for the disc", True),
    ("as modelled before [12, Fig. 2] for the disc", True),
    ("as modelled before [12, 14, see Fig. 2] for the disc", True),
    ("as modelled before \\citep[Fig.~2]{smith} for the disc", True),  # source
    ("as modelled before \\citet[see][Fig.~2]{smith} for the disc", True),
    ("as modelled before (?, ?, Fig. 2) for the disc", True),  # unresolved citations print "?"
    ("as modelled before (Smith, 2019, Fig. 2) for the disc", True),  # a comma after one author
    ("as modelled before (Binney & Tremaine 2008, pg. 260, Figure 3.45) for the disc", True),
    ("as modelled before [12, p. 5, Fig. 2] for the disc", True),
    ("as modelled before (see Figure 6 of Pal 2009) for the disc", True),  # \\citealt: one author, a year
    ("as modelled before (see fig. 1 of Moss & Schneider, 2000) for the disc", True),  # two authors joined by &
    ("as shown in Fig. 1 of Maoz, Mannucci & Brandt 2012, the rate", True),  # three authors
    ("as shown in Fig. 1 of Maoz, Mannucci, and Brandt (2012), the rate", True),
    ("as shown in Fig. 1, Table 2, and Section 3, the rate", False),
    ("as modelled before (see fig.~1 of Moss \\& Schneider) for the disc", True),  # source
    ("as modelled before \\cite[see fig.~1 of][]{moss} for the disc", True),  # apacite's \\cite<..>, read as [..]
    ("as in Figure~1 and Section~2.1 of \\citet{negin}, the disc", True),  # two parts of the cited work
    ("as in Figure 3 of Section 2, the disc", False),
    ("as in Figure 1 and Section 2 of this paper, the disc", False),
    ("as modelled before (Table 3, Fig. 2) for the disc", False),
    ("as modelled before [?, Fig. 2] for the disc", True),
    # this paper's figure beside a citation, not inside its note
    ("as modelled before (Smith et al., 2019; Fig. 2) for the disc", False),
    ("as modelled before (Smith et al., 2019, see Fig. 2) for the disc", False),
    ("as modelled before (Fig. 2; Smith et al., 2019) for the disc", False),
    ("(In 2019, Fig. 2 was redrawn)", False),
    ("In 2019, Figure 3 was redrawn", False),
    ("the loss (measured in 2019, Figure 3) falls", False),
    # a figure in its own parentheses after a citation: where this paper compares with the work
    ("compared with the results obtained by Doghri [109] (Figure B2).", False),
    ("compared with the results of Smith \\cite{s} (Figure 3), the loss", False),
    ("as shown in Fig. 11 of Ref.~\\cite{lhc} for the fit", True),  # source
    ("as shown in Fig. 11 of Ref. [7] for the fit", True),  # printed
    # a citation the build left unresolved ("[?]"; natbib's "?" and "(?)"), lower-case "ref.",
    # "of~\cite" and biblatex's commands in the sources, an alphabetic label, "(Author, Year)"
    ("Based on Fig. 1 of Ref. [?], we expect", True),
    ("as shown in Fig. 1 in [?, ?] for the fit", True),
    ("as shown in Figure 1 of ? for the fit", True),
    ("as shown in Figure 1 of (?) for the fit", True),
    ("as shown in Fig. 2 in ref. [4] for the fit", True),
    ("as shown in Figure 2 of reference 12 for the fit", True),
    ("as shown in Fig.~2 of~\\cite{lhc} for the fit", True),
    ("as shown in Fig.~2 in ref.~\\cite{lhc} for the fit", True),
    ("as shown in Fig.~2 of Ref.\\ \\cite{lhc} for the fit", True),
    ("as shown in Fig.~2 of \\parencite{lhc} for the fit", True),
    ("as shown in Fig. 2 of [SJ19] for the fit", True),
    ("as shown in Fig. 2 of (Lee, 2020) for the fit", True),
    ("as shown in Fig. 2 of (Smith et al. 2019) for the fit", True),
    ("as shown in Figure 2 of ?? for the fit", False),  # an unresolved \\ref, not a citation
    ("as shown in Figure 2 in reference to the fit", False),
    ("as shown in Fig. 2 of the appendix for the fit", False),
    ("as shown in Fig. 2 in (a) for the fit", False),
    ("the profile of Fig. 4b of Paper I is flatter", True),  # a companion paper of a series
    ("Figure 2 of Part II repeats the setup", False),  # a part of this document
    ("as Figure 3 shows, the loss falls", False),
    ("in Figure 3 of Section 2 the loss falls", False),
    ("see Figure 2 in this paper for the setup", False),
    ("Figure 3 (supplementary data in the appendix) shows", False),
    # the supplement's own series, named before or after the number
    ("as in Supplementary Information Fig. 2, the fit holds", True),
    ("Extended Data Fig. 5 shows the raw counts", True),
    ("see Figure 2 in the Supplementary Material for the fit", True),
    ("see Figure 4 in the Supporting Information", True),
    ("see Figure 2 of the SI for the fit", True),
    ("see Fig. 2 in the Sign test table", False),
    # a figure in parentheses, then the sentence's own citation: this paper's figure
    ("the signal runs down the cascade (Figure 2.3) [77]. In turn", False),
    ("the signal runs down the cascade (Fig.~3)~\\cite{lee} and back", False),
    ("the signal runs down the cascade (Fig.~3 of~\\cite{lee}) and back", True),
])
def test_a_figure_of_another_work_or_series(text, external):
    from figlint.mentions import external_mention

    (m,) = find_mentions(text)
    assert external_mention(text, m.start, m.end) is external


@pytest.mark.parametrize(
    "text, label, number, rest",
    [
        # the figure name in other languages (babel, a class or \figurename)
        ("Figura 4-1. Mapa de presiones del yacimiento", "Figura 4-1", "4-1", "Mapa de presiones del yacimiento"),
        ("Abbildung 2: Aufbau des Versuchs", "Abbildung 2", "2", "Aufbau des Versuchs"),
        ("Abb. 3: Messwerte", "Abb. 3", "3", "Messwerte"),
        ("Figuur 5: Resultaten", "Figuur 5", "5", "Resultaten"),
        ("Rys. 2. Schemat układu", "Rys. 2", "2", "Schemat układu"),
        ("Рис. 3. Схема установки", "Рис. 3", "3", "Схема установки"),
        # babel's and xgreek's: Greek (its capitals without the accent), Scandinavian, Finnish,
        # Turkish, South Slavic, Bulgarian
        ("Σχήμα 1.2: Το υπολογιστικό πλέγμα", "Σχήμα 1.2", "1.2", "Το υπολογιστικό πλέγμα"),
        ("ΣΧΗΜΑ 3. Αποτελέσματα", "ΣΧΗΜΑ 3", "3", "Αποτελέσματα"),
        ("Figur 2: Resultat av körningen", "Figur 2", "2", "Resultat av körningen"),
        ("Kuva 4. Tulokset", "Kuva 4", "4", "Tulokset"),
        ("Şekil 2. Deney düzeneği", "Şekil 2", "2", "Deney düzeneği"),
        ("Slika 3: Rezultati mjerenja", "Slika 3", "3", "Rezultati mjerenja"),
        ("Фигура 1. Схема", "Фигура 1", "1", "Схема"),
        # a chapter joined by a dash (\thechapter-\arabic{figure}), a prefix after a thin space
        ("Figure 3\u20132: Dash from the class", "Figure 3\u20132", "3\u20132", "Dash from the class"),
        ("Fig. SI\u20093. Supplementary view", "Fig. SI 3", "SI\u20093", "Supplementary view"),
    ],
)
def test_caption_labels_of_other_languages_and_numbering_schemes(text, label, number, rest):
    assert parse_caption_label(text) == (label, number, rest)


def test_numbers_of_other_schemes_normalise_as_both_routes_print_them():
    assert normalize_number("SI\u20093") == normalize_number("SI\\,3") == normalize_number("SI 3") == "SI3"
    assert normalize_number("4\u20131") == normalize_number("4-1") == "4-1"


def test_a_dash_joins_a_number_only_where_the_paper_has_that_figure():
    text = "la Figura 4-1 muestra la presión; see Figs. 3-5 and Abbildung 2."
    assert [m.numbers for m in find_mentions(text, known={"4-1", "4-2"})] == [["4-1"], ["3", "4", "5"], ["2"]]
    # without such figures "4-1" is not a range either way round; "3-5" stays a range
    assert [m.numbers for m in find_mentions(text)][1:] == [["3", "4", "5"], ["2"]]


def test_tables_in_other_languages_are_floats_too():
    assert parse_float_label("Tabla 2-1. Propiedades del fluido")[:3] == ("table", "Tabla 2-1", "2-1")
    assert parse_float_label("Tabelle 1: Messwerte")[0] == "table"


def test_a_chapter_joined_by_a_centred_dot_is_one_number():
    from figlint.mentions import find_mentions, normalize_number, parse_caption_label

    for dot in ("\u00b7", "\u22c5"):
        assert parse_caption_label(f"Figure 4{dot}12: Ionograms of the night.")[1] == f"4{dot}12"
        assert [m.numbers for m in find_mentions(f"as Figure 4{dot}12 shows, and Figs. 4{dot}2 to 4{dot}4 too")] \
            == [[f"4{dot}12"], [f"4{dot}2", f"4{dot}3", f"4{dot}4"]]
        assert normalize_number(f"4{dot}12") == normalize_number("4.12") == "4.12"
        # an appendix lettered the same way: "Figure A·3"
        assert parse_caption_label(f"Figure A{dot}3: Camera noise.")[1] == f"A{dot}3"
        assert [m.numbers for m in find_mentions(f"as Figure A{dot}3 shows")] == [[f"A{dot}3"]]
        assert normalize_number(f"A{dot}3") == normalize_number("A.3") == "A3"


def test_mentions_in_more_languages_and_their_inflections():
    text = ("όπως στο Σχήμα 4.3 και στα Σχήματα 2.1, 2.2; βλ. Σχ. 5. Som i Figur 3 og figurene 4-6; "
            "kuvassa 2; die Figuren 2 und 3; Figuur 5")
    assert [m.numbers for m in find_mentions(text)] == [["4.3"], ["2.1", "2.2"], ["5"], ["3"], ["4", "5", "6"],
                                                        ["2"], ["2", "3"], ["5"]]
    # Russian and Ukrainian decline the word in every case, singular and plural (field audit:
    # a range cited as "на рисунках 2-5" left four figures uncited on the PDF route)
    text = ("на рисунках 2-5; рисунками 6 и 7; рисунков 8, 9; к рисункам 10-11; рисунку 12; рисунком 13; "
            "на рисунке 14; рисунків 15-16; на фигурите 17 и 18; на рис 19")
    assert [m.numbers for m in find_mentions(text)] == [
        ["2", "3", "4", "5"], ["6", "7"], ["8", "9"], ["10", "11"], ["12"], ["13"], ["14"], ["15", "16"], ["17", "18"], ["19"]]
    # the abbreviation without its period, before a number only ("рис" is also a word: rice)
    assert find_mentions("рис и пшеница, 7 тонн") == []
    # a figure word inside another word, and an English word that begins like one, are none
    assert find_mentions("Konfigur 3 and Configuration 2") == []
    assert [m.numbers for m in find_mentions("Figure 4 and Fig.A1")] == [["4"], ["A1"]]


def test_tables_in_more_languages_are_floats_too():
    assert parse_float_label("Πίνακας 2.1: Τιμές")[:3] == ("table", "Πίνακας 2.1", "2.1")
    assert parse_float_label("Tabell 1: Mätvärden")[0] == "table"
    assert parse_float_label("Taulukko 3. Tulokset")[0] == "table"


def test_number_first_supporting_figures():
    """PLoS cites its supporting figures number first ("S1 Fig", "S1 and S2 Figs", "S3, S4, ...,
    and S10 Fig."): they were not read, and a paper citing its supplement only so had every
    supporting figure reported uncited on the PDF route (field audit, a population-genetics
    preprint: 10 false FL301)."""
    from figlint.mentions import find_mentions

    got = [(m.text, m.numbers) for m in find_mentions("as S1 Fig shows, and (S2 and S3 Figs); see S4\u2013S6 Figs.")]
    assert got == [("S1 Fig", ["S1"]), ("S2 and S3 Figs", ["S2", "S3"]), ("S4\u2013S6 Figs.", ["S4", "S5", "S6"])]
    got = find_mentions("S3, S4, \u2026, and S10 Fig. show the runs")
    assert [m.numbers for m in got] == [["S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10"]]
    # read once where the word comes first, and nothing without an S number
    assert [m.numbers for m in find_mentions("Figs. S1 and S2 Fig")] == [["S1", "S2"]]
    assert [m.numbers for m in find_mentions("the CAS1 Fig and S1 Figure")] == [["S1"]]


def test_number_first_citations_cite_on_both_routes(tmp_path, pdflatex):
    from figlint.config import Config
    from figlint.engine import lint_path
    from fixtures.pdf_build import compile_tex

    fig = ("\\begin{{figure}}[h]\\centering\\includegraphics[width=3cm]{{plot.png}}"
           "\\caption{{{}}}\\end{{figure}}\n")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\renewcommand{\\thefigure}{S\\arabic{figure}}\n"
           "\\begin{document}\nThe spread of every run is shown in S1 and S2 Figs, and the last seed in S3 Fig.\n"
           + fig.format("Spread of the first runs.") + fig.format("Spread of the later runs.")
           + fig.format("The last seed.") + "\\end{document}\n")
    compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    for target, pdf in ((tmp_path / "main.pdf", None), (tmp_path / "main.tex", str(tmp_path / "main.pdf"))):
        codes = [f.code for f in lint_path(str(target), Config(select=["FL301"], pdf=pdf)).findings]
        assert codes == [], (target.name, codes)


def test_a_range_whose_end_drops_the_prefix_cites_every_figure_on_both_routes(tmp_path, pdflatex):
    """Typed "figures S1-3" (the supplement's prefix written once) cites S2 and S3 too, on the
    PDF route and the sources route alike, and not main Figure 3; "Figure S3-style" cites no
    further figure, and a range of main figures is unchanged (field audit, a population-genetics
    manuscript: 5 false FL301 on the PDF route)."""
    from figlint.config import Config
    from figlint.engine import lint_path
    from fixtures.pdf_build import compile_tex

    fig = ("\\begin{{figure}}[h]\\centering\\includegraphics[width=3cm]{{plot.png}}"
           "\\caption{{{}}}\\end{{figure}}\n")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "The main runs are in figures 1-2. The spread of every run is in the supplement "
           "(figures S1-3), and Figure S3-style plots of the seeds would need more runs.\n"
           + fig.format("First run.") + fig.format("Second run.") + fig.format("Third run.")
           + "\\clearpage\\setcounter{figure}{0}\\renewcommand{\\thefigure}{S\\arabic{figure}}\n"
           + "".join(fig.format(f"Spread {k}.") for k in range(1, 6)) + "\\end{document}\n")
    compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    for target, pdf in ((tmp_path / "main.pdf", None), (tmp_path / "main.tex", str(tmp_path / "main.pdf"))):
        found = lint_path(str(target), Config(select=["FL301"], pdf=pdf)).findings
        uncited = sorted(f.figure for f in found if f.code == "FL301")
        assert uncited == ["3", "S4", "S5"], (target.name, uncited)
