"""figlint.bind: citing sites put on their figures; repeats of one place dropped."""

from __future__ import annotations

from figlint.bind import bind_sites
from figlint.model import CitingSite, Figure, Location, Paper


def _site(via: str, bbox, mention: str) -> CitingSite:
    return CitingSite(paragraph="p", sentence=mention, mention=mention, via=via,
                      location=Location(file="paper.pdf", page=3, bbox=bbox))


def test_two_printed_mentions_are_two_sites_however_their_boxes_lie():
    # "see Fig-/ures 7, 8." broken over two lines spans both lines' width; "depicted in
    # Figures 7 and 8" on the second line is a second reference to each figure
    paper = Paper(path="paper.pdf", route="pdf")
    paper.figures = [Figure(number="7")]
    broken = _site("text", (300.0, 100.0, 540.0, 124.0), "Figures 7, 8")
    second = _site("text", (200.0, 112.0, 260.0, 124.0), "Figures 7 and 8")
    assert bind_sites(paper, [("7", broken), ("7", second)]) == []
    assert [s.mention for s in paper.figures[0].sites] == ["Figures 7, 8", "Figures 7 and 8"]


def test_a_mention_seen_as_text_and_as_its_link_is_one_site():
    paper = Paper(path="paper.pdf", route="pdf")
    paper.figures = [Figure(number="7")]
    link = _site("link", (210.0, 112.0, 250.0, 124.0), "7")
    text = _site("text", (200.0, 112.0, 260.0, 124.0), "Figure 7")
    bind_sites(paper, [("7", link), ("7", text)])
    assert [(s.via, s.mention) for s in paper.figures[0].sites] == [("text", "Figure 7")]
