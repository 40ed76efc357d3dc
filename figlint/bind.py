"""Attach citing sites to figures by number, shared by the PDF and LaTeX routes.

Ingestion finds sites as (figure number, CitingSite) pairs; binding puts each on
the figure with that number — "A.2" and "A2" are one figure — drops repeats of
the same place (a mention seen both as printed text and as a link annotation is
one site, the text one wins), and hands back the sites whose number no figure
has, so rules can report references to missing figures. Evidence gating (L1)
then follows from the record itself: `Figure.gated_dimensions()`.
"""

from __future__ import annotations

from collections.abc import Iterable

from figlint.mentions import normalize_number
from figlint.model import BBox, CitingSite, Figure, Paper


def _overlaps(a: BBox | None, b: BBox | None) -> bool:
    if a is None or b is None:
        return False
    return min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0


def same_place(a: CitingSite, b: CitingSite) -> bool:
    """Two sites are one when they sit at the same source position, or overlap on the same
    page while one of them is a link (a mention seen as printed text and as its link). Two
    mentions found in the printed text are two sites however their boxes lie: a mention
    broken over lines ("see Fig-/ures 7, 8") spans both lines' width, and the next mention
    on the second line is another reference all the same."""
    la, lb = a.location, b.location
    if la.line is not None and lb.line is not None:
        return (la.file, la.line, la.column) == (lb.file, lb.line, lb.column)
    if a.via == "text" and b.via == "text":
        return False
    return la.page is not None and la.page == lb.page and _overlaps(la.bbox, lb.bbox)


def figure_index(paper: Paper) -> dict[str, Figure]:
    index: dict[str, Figure] = {}
    for fig in paper.figures:
        if fig.number:
            index.setdefault(normalize_number(fig.number), fig)
    return index


def bind_sites(paper: Paper, sites: Iterable[tuple[str, CitingSite]]) -> list[tuple[str, CitingSite]]:
    """Add sites to paper's figures; return the (number, site) pairs no figure matched."""
    index = figure_index(paper)
    unbound: list[tuple[str, CitingSite]] = []
    for number, site in sites:
        fig = index.get(normalize_number(number))
        if fig is None and len(site.panels) == 1:
            # "Figure 6.3b" of a paper whose figures are numbered 6.3a and 6.3b: the letter is
            # the figure's, not a panel's
            fig = index.get(normalize_number(number + site.panels[0]))
        if fig is None:
            unbound.append((number, site))
            continue
        dup = next((s for s in fig.sites if same_place(s, site)), None)
        if dup is not None:
            if dup.via == "link" and site.via != "link":
                fig.sites[fig.sites.index(dup)] = site
            else:
                for p in site.panels:
                    if p not in dup.panels:
                        dup.panels.append(p)
            continue
        fig.sites.append(site)
    return unbound
