"""Graphics at print size from the LaTeX sources alone (no compiled PDF).

When no compiled PDF sits next to the sources, the visual rules (FL101 low-dpi,
FL102 tiny-text) still need each figure's content *as printed*. This module
predicts it: `fill_from_graphics(paper)` works out the text and column width
of the document, the size at which every `\\includegraphics` is placed, and
fills each LaTeX figure with

* `images`: one RasterImage per PNG/JPEG file (and per image embedded in a PDF
  graphic) with its effective DPI at the placed size;
* `spans`: the text of PDF graphics, font size x placement scale;
* `drawings`: the vector paths of PDF graphics, scaled likewise;

and marks the figure `extra["content_source"] = "graphics-files"`. It also sets
`paper.body_font_size` from the class (10/11/12pt option or the venue's size).

Document layout (all lengths in TeX points, 72.27 per inch)
-----------------------------------------------------------
The class gives the starting point, then the preamble is read in source order
(`\\input` files of the preamble inlined): `\\usepackage[..]{geometry}` and
`\\geometry{..}`, `\\setlength`/`\\addtolength` of `\\textwidth`/`\\columnsep`,
`\\twocolumn`, and venue style packages. The numbers and where they come from:

  class / package              textwidth          columnsep   columns  body
  article, report, book        min(paper-2in, W)  10pt        1        option
      W = 345/360/390pt for 10/11/12pt (size1x.clo); twocolumn:
      min(paper-2in, 2W), truncated to whole pt -> 469pt letter, 452pt a4
      (columnwidth 229.5/221pt). Checked with pdflatex (TeX Live, article.cls).
  geometry                     paper - left - right, or width=/textwidth=/
      total=/text=/body=, or hscale x paper; no horizontal key: 0.7 x paper;
      one margin only: the other is 0.15 x paper (0.12 twoside). Checked with
      pdflatex (geometry.sty) on 20 option sets.
  fullpage                     paper - 2in        (fullpage.sty; [cm]: 1.5cm margins)
  neurips_*/nips_*             5.5in = 397.48pt   -           1        10pt
      (neurips_2022.sty: \\newgeometry{textwidth=5.5in} at \\begin{document})
  iclr*_conference             5.5in = 397.48pt   -           1        10pt
      (iclr20xx_conference.sty: \\textwidth 5.5 true in)
  icml*                        6.75in = 487.82pt  0.25in      2        10pt
      (icml2025.sty: \\setlength\\textwidth{6.75in}, \\columnsep{0.25in};
      columnwidth 234.88pt)
  cvpr*/iccv*/wacv*            6.875in = 496.86pt 0.3125in    2        option
      (cvpr.sty: \\setlength{\\textwidth}{6.875in}, \\columnsep{0.3125in};
      columnwidth 237.14pt)
  acl/acl_natbib/naacl*/emnlp*/eacl*/aacl*
                               16cm = 455.24pt    0.6cm       2        option
      (acl.sty: geometry a4paper, margin=2.5cm; emnlp2023.sty textwidth=16.0cm,
      \\columnsep{0.6cm}; columnwidth 219.09pt)
  aaai*                        7in = 505.89pt     0.375in     2        10pt
      (aaai25.sty: \\setlength\\textwidth{7.0in}, \\columnsep{0.375in})
  IEEEtran                     43pc = 516pt       1pc         2        option (10pt)
      (IEEEtran.cls v1.8b: \\columnsep 1pc, \\textwidth 43pc; columnwidth 21pc =
      252pt); compsoc journal 7in+12bp, columnsep 12bp; compsoc conference
      paper-1.5in, columnsep 0.25in
  acmart                       by format (acmart.cls v1.73 \\geometry calls):
      sigconf/siggraph/sigchi 8.5in-2x54pt = 506.295pt, columnsep 2pc, 2 cols
      (columnwidth 241.15pt), 9pt; sigplan 8.5in-1.5in, 2 cols, 10pt; acmtog
      8.5in-2x52pt, 2 cols, 9pt; acmsmall 6.75in-2x46pt, 1 col, 10pt; acmlarge
      8.5in-2x81pt, 1 col, 10pt; manuscript 0.7 x 8.5in (geometry default), 9pt
  llncs                        12.2cm = 347.12pt  -           1        10pt
      (llncs.cls v2.23: \\setlength{\\textwidth}{12.2cm})
  revtex4-1, revtex4-2         510pt at 10pt      18pt        reprint/ 10pt (reprint), 12pt
                               468pt otherwise    10pt        twocolumn (preprint, aip), option
  elsarticle                   1p 384pt; 3p 468pt (columnsep 2pc, 2 cols if asked); 5p 522pt
      (columnsep 18pt, 2 cols); preprint/default: article rules
  scrartcl, scrreprt, scrbook  (paper - BCOR) x (DIV-3)/DIV; DIV 8/10/12 for 10/11/12pt on
      a4 (11pt default), or DIV=n; other papers without DIV: article rules, noted
  (revtex, elsarticle and KOMA measured with pdflatex (TeX Live 2022), with the body size
  too: tests/test_class_layouts.py; IEEEtran compsoc journals print 10pt as 9.5bp.)

Package names match case-insensitively (`EMNLP2023`). A package or class not in
this table whose .sty/.cls ships with the paper (found by name, or by path as in
`\\documentclass{Definitions/mdpi}`) is read for the same commands
(`\\PassOptionsToPackage{..}{geometry}`, `\\setlength\\textwidth`, `\\twocolumn`,
`\\LoadClass[..]{base}`, a `\\normalsize` definition for the body size, plain
`\\textwidth=..` and `\\newdimen` register assignments) as TeX would run them
(ingest/styleread.py): up to `\\endinput`; the bodies of definitions are not run;
its options are processed (`\\DeclareOption`/`\\ExecuteOptions`/`\\ProcessOptions`
and xkeyval's X forms) and the branches of `\\if<switch>` they rule out are not read
(other conditionals keep both branches, last one wins); a class that leaves
`\\if@twocolumn` true is set in two columns. How NLPAICS-style ACL clones, ametsoc.cls
(12pt draft), mnras.cls, aastex631.cls and copernicus.cls are read. Other unknown
classes fall back to the article rules (noted in
`paper.extra["source_layout"]["notes"]`). The preamble's own `\\newif` switches
decide their branches the same way. Venue packages apply where they are
loaded, except NeurIPS, whose geometry is set at `\\begin{document}`.
`\\setlength`/`\\newlength` user lengths and argument-free `\\newcommand`/`\\def`
macros that hold a length (`\\newcommand{\\figw}{0.45\\linewidth}`) are
evaluated where the graphic uses them.

Measured on the 17 corpus papers (shared/corpus/papers, sources alone vs the
PDF route on their paper.pdf): every raster DPI and every text size that both
routes see agrees within 0.1 %, and the body size is the printed one
(tests/acceptance/test_placement_corpus.py).

Width of a graphic
------------------
`\\linewidth` and friends are resolved as LaTeX does (checked with pdflatex):
in a `figure` of a two-column document `\\linewidth`=`\\columnwidth` and
`\\textwidth` is the full text width; in `figure*` `\\linewidth`=`\\textwidth`;
in a `minipage`/`subfigure{w}` all of `\\linewidth`, `\\textwidth`,
`\\columnwidth` and `\\hsize` become w; in `\\parbox{w}` and `wrapfigure{..}{w}`
only `\\linewidth`/`\\hsize` do, as in a `strip` (cuted) or `widetext` where they
become the text width. `\\resizebox`, `\\scalebox` and `adjustbox`
around a graphic rescale it afterwards (assuming the box holds that graphic
alone). The enclosing environments are found by re-reading the source file
from the figure's `\\begin` to the graphic (comments blanked).

graphicx keys: width, height/totalheight, keepaspectratio, scale (width or
height win over scale, as in graphicx), angle (multiples of 90 swap the axes),
trim/viewport (natural size reduced), page (PDF page); knitr's `\\maxwidth` is
min(natural width, `\\linewidth`). No size keys: natural
size -- the PDF's crop box in bp; PNG/JPEG pixels / the file's resolution
(PNG pHYs, JPEG JFIF or Exif), else 72 DPI, as pdfTeX does.

Approximations (documented, not errors): lengths in em/ex use the body font
size (1em = body, 1ex = 0.43 body); `\\textheight` is unknown, so a graphic
sized only by a fraction of it is skipped; several graphics in one figure are
laid out left to right, wrapping at the figure's line width, in one frame
starting at (0, 0) -- close to what LaTeX prints for rows of subfigures, not
exact; rotated PDF graphics keep their text sizes right but their boxes
unrotated; `p{..}` table columns do not change `\\linewidth` here
(`adjustwidth{left}{right}` of changepage does: `\\linewidth` less both margins).
EPS graphics are skipped (noted in `fig.extra["placement_skipped"]`);
missing or unreadable files are skipped silently (FL307 reports missing files).
A PDF graphic with more than 1 MB of page content keeps its text and images but
not its vector paths (reading 50k scatter marks takes seconds).

Vector content follows the PDF route's conventions (ingest/pdf.py): text spans
under 0.5 pt dropped, paths cut to their clip and consecutive same-style paths
merged. A figure that is a single bitmap also gets `extra["image_path"]`, so
feature analysis reads its pixels as it does for an image input.
`fig.extra["placement"]` records, per graphic, the placed size in bp, the scale,
the `\\linewidth` it was resolved against and the enclosing boxes.
"""

from __future__ import annotations

import os
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from figlint.model import Drawing, Figure, Paper, RasterImage, TextSpan
from figlint.ingest.paths import clipped_drawings, glyph_marks
from figlint.ingest.pdf_hidden import drop_hidden_text
from figlint.ingest.styleread import definition, normalsize, option_flags, resolve_ifs, undecided
from figlint.ingest.type3 import fix_sizes as fix_type3_sizes

IN = 72.27  # TeX points per inch
BP = IN / 72.0  # TeX points per PostScript point (PDF unit)
_UNITS = {
    "pt": 1.0, "bp": BP, "in": IN, "cm": IN / 2.54, "mm": IN / 25.4, "pc": 12.0,
    "dd": 1238 / 1157, "cc": 12 * 1238 / 1157, "sp": 1 / 65536, "px": BP,
    "nd": 685 / 642, "nc": 12 * 685 / 642,
}
_PAPERS = {  # width, height in TeX pt
    "letterpaper": (8.5 * IN, 11 * IN), "a4paper": (210 * _UNITS["mm"], 297 * _UNITS["mm"]),
    "a5paper": (148 * _UNITS["mm"], 210 * _UNITS["mm"]), "b5paper": (176 * _UNITS["mm"], 250 * _UNITS["mm"]),
    "legalpaper": (8.5 * IN, 14 * IN), "executivepaper": (7.25 * IN, 10.5 * IN),
    "a3paper": (297 * _UNITS["mm"], 420 * _UNITS["mm"]),
}
_ARTICLE_W = {10: 345.0, 11: 360.0, 12: 390.0}  # size10/11/12.clo, onecolumn cap
RASTER_EXTS = {".png", ".jpg", ".jpeg"}
_WIDE_ENVS = {"figure*", "teaserfigure", "widefigure", "SCfigure*", "wrapfigure*"}
_SIDEWAYS_ENVS = {"sidewaysfigure", "sidewaysfigure*"}


# ---------------------------------------------------------------- layout

@dataclass
class Layout:
    """Text block of the document, in TeX points."""

    textwidth: float
    columnsep: float = 10.0
    columns: int = 1
    body_pt: float | None = None
    paperwidth: float = _PAPERS["letterpaper"][0]
    source: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def columnwidth(self) -> float:
        if self.columns >= 2:
            return (self.textwidth - self.columnsep) / 2
        return self.textwidth

    def as_dict(self) -> dict[str, Any]:
        return {"textwidth_pt": round(self.textwidth, 3), "columnwidth_pt": round(self.columnwidth, 3),
                "columns": self.columns, "columnsep_pt": round(self.columnsep, 3), "body_pt": self.body_pt,
                "paperwidth_pt": round(self.paperwidth, 3), "source": self.source, "notes": list(self.notes)}


_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")


def strip_comments(text: str) -> str:
    """Blank out TeX comments, keeping every other character at its offset."""
    return _COMMENT.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)


def _split_opts(raw: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for c in raw:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return [o for o in out if o]


def _kv(raw: str) -> list[tuple[str, str | None]]:
    out = []
    for part in _split_opts(raw):
        if "=" in part:
            k, v = part.split("=", 1)
            v = v.strip()
            if v.startswith("{") and v.endswith("}"):
                v = v[1:-1].strip()
            out.append((k.strip(), v))
        else:
            out.append((part.strip(), None))
    return out


def _size_option(opts: list[str]) -> int | None:
    for o in reversed(opts):
        m = re.fullmatch(r"(\d+(?:\.\d+)?)pt", o.strip())
        if m:
            return int(float(m.group(1)))
    return None


def _article(opts: list[str], size: int | None, paper: tuple[float, float]) -> Layout:
    size = size if size in _ARTICLE_W else 10
    avail = paper[0] - 2 * IN
    two = "twocolumn" in opts and "onecolumn" not in opts[opts.index("twocolumn"):]
    w = min(avail, 2 * _ARTICLE_W[size] if two else _ARTICLE_W[size])
    return Layout(textwidth=float(int(w)), columns=2 if two else 1, body_pt=float(size), paperwidth=paper[0],
                  source=f"article {size}pt")


_ACM = {  # format -> (textwidth in TeX pt, columns, body pt); acmart.cls v1.73 \geometry per format
    "manuscript": (0.7 * 8.5 * IN, 1, 9.0),
    "acmsmall": (6.75 * IN - 92, 1, 10.0),
    "acmlarge": (8.5 * IN - 162, 1, 10.0),
    "acmtog": (8.5 * IN - 104, 2, 9.0),
    "sigconf": (8.5 * IN - 108, 2, 9.0),
    "siggraph": (8.5 * IN - 108, 2, 9.0),
    "sigplan": (8.5 * IN - 1.5 * IN, 2, 10.0),
    "sigchi": (8.5 * IN - 108, 2, 9.0),
    "sigchi-a": (11 * IN - 386, 1, 10.0),
}


def class_layout(cls: str, opts: list[str]) -> Layout:
    """The text block a document class sets up from its options (before any package)."""
    size = _size_option(opts)
    paper = next((_PAPERS[o] for o in reversed(opts) if o in _PAPERS), _PAPERS["letterpaper"])
    if "landscape" in opts:
        paper = (paper[1], paper[0])
    if cls == "IEEEtran":
        one = "onecolumn" in opts
        if "compsoc" in opts:
            if "conference" in opts:
                lay = Layout(paper[0] - 1.5 * IN, columnsep=0.25 * IN, columns=2, source="IEEEtran compsoc conference")
            else:
                lay = Layout(7 * IN + 12 * BP, columnsep=12 * BP, columns=2, source="IEEEtran compsoc")
        else:
            lay = Layout(43 * 12.0, columnsep=12.0, columns=2, source="IEEEtran")
        if one:
            lay.columns = 1
        lay.body_pt = float(size) if size in (9, 10, 11, 12) else 10.0
        if "compsoc" in opts and "conference" not in opts and lay.body_pt == 10.0:
            lay.body_pt = 9.5  # IEEEtran.cls: compsoc journals set 10pt as 9.5bp
        lay.paperwidth = paper[0]
        return lay
    if cls in ("revtex4-1", "revtex4-2"):
        return _revtex(cls, opts, size, paper)
    if cls == "elsarticle":
        return _elsarticle(opts, size, paper)
    if cls in ("scrartcl", "scrreprt", "scrbook"):
        koma = _koma(cls, opts)
        if koma is not None:
            return koma
        lay = _article(opts, size or 11, paper)  # KOMA's default body is 11pt
        lay.notes.append(f"{cls}: typearea computes DIV for this paper itself; article rules assumed")
        return lay
    if cls == "acmart":
        fmt = "manuscript"
        for o in opts:
            key = o.split("=", 1)[1].strip() if o.startswith("format=") else o
            if key in _ACM:
                fmt = key
        w, cols, body = _ACM[fmt]
        lay = Layout(w, columnsep=24.0, columns=cols, body_pt=float(size) if size else body,
                     paperwidth=8.5 * IN, source=f"acmart {fmt}")
        return lay
    if cls == "llncs":
        return Layout(12.2 * _UNITS["cm"], columns=1, body_pt=float(size) if size in (10, 11, 12) else 10.0,
                      paperwidth=paper[0], source="llncs")
    lay = _article(opts, size, paper)
    if cls not in ("article", "report", "book"):
        lay.notes.append(f"class {cls!r} unknown: article defaults assumed")
    if cls != "article":
        lay.source = f"{cls} (article rules) {lay.source.split(' ', 1)[1]}"
    return lay


def _revtex(cls: str, opts: list[str], size: int | None, paper: tuple[float, float]) -> Layout:
    """revtex4-1/4-2, measured with pdflatex (tests/test_class_layouts.py): `reprint` sets
    10pt in two columns, `preprint` 12pt; the aip society makes 11pt and no size 12pt. The
    text block is 510pt (columnsep 18pt) at 10pt, 468pt (columnsep 10pt) otherwise, on
    letter and a4 alike."""
    if "reprint" in opts:
        size = 10
    elif "preprint" in opts:
        size = 12
    elif "aip" in opts:
        size = 10 if size == 10 else 12
    elif size not in (10, 11, 12):
        size = 10
    two = ("reprint" in opts or "twocolumn" in opts) and "onecolumn" not in opts
    tw, cs = (510.0, 18.0) if size == 10 else (468.0, 10.0)
    return Layout(tw, columnsep=cs, columns=2 if two else 1, body_pt=float(size), paperwidth=paper[0],
                  source=f"{cls} {size}pt")


def _elsarticle(opts: list[str], size: int | None, paper: tuple[float, float]) -> Layout:
    """elsarticle.cls: 1p/3p/5p set the text block with geometry on a4 (384pt one column;
    468pt, columnsep 2pc, two columns if asked; 522pt, columnsep 18pt, always two columns);
    otherwise (preprint, the default) article rules (its `\\ExecuteOptions{a4paper}` names an
    option it does not declare, so the paper stays article's letter)."""
    body = float(size) if size in (10, 11, 12) else 10.0
    a4 = _PAPERS["a4paper"][0]
    if "1p" in opts:
        return Layout(384.0, columns=1, body_pt=body, paperwidth=a4, source="elsarticle 1p")
    if "3p" in opts:
        return Layout(468.0, columnsep=24.0, columns=2 if "twocolumn" in opts else 1, body_pt=body, paperwidth=a4,
                      source="elsarticle 3p")
    if "5p" in opts:
        return Layout(522.0, columnsep=18.0, columns=2, body_pt=body, paperwidth=a4, source="elsarticle 5p")
    lay = _article(opts, size, paper)
    lay.source = "elsarticle (article rules) " + lay.source.split(" ", 1)[1]
    return lay


_KOMA_DIV = {10: 8, 11: 10, 12: 12}  # typearea's DIV for a4 paper by body size (scrguide, "DIV=default")


def _koma(cls: str, opts: list[str]) -> Layout | None:
    """KOMA-Script classes (typearea): the paper less the binding correction BCOR, cut into
    DIV stripes of which the text takes DIV-3; 11pt and a4 paper by default. Checked with
    pdflatex (tests/test_class_layouts.py). None where typearea computes DIV itself (a paper
    other than a4 with no DIV given, DIV=calc): the article fallback and a note then."""
    size, paper, div, bcor = 11, "a4paper", None, 0.0
    for o in opts:
        k, _, v = o.partition("=")
        k, v = k.strip(), v.strip()
        m = re.fullmatch(r"(\d+)pt", v if k == "fontsize" else o.strip())
        if m:
            size = int(m.group(1))
        elif o in _PAPERS:
            paper = o
        elif k == "paper" and v + "paper" in _PAPERS:
            paper = v + "paper"
        elif k == "DIV":
            div = int(v) if v.isdigit() else -1
        elif k == "BCOR":
            bcor = Lengths({}, float(size)).eval(v) or 0.0
    if div is None:
        div = _KOMA_DIV.get(size) if paper == "a4paper" else None
    if not div or div <= 3:
        return None
    pw = _PAPERS[paper][0]
    two = "twocolumn" in opts or "twocolumn=true" in opts
    return Layout((pw - bcor) * (div - 3) / div, columnsep=10.0, columns=2 if two else 1, body_pt=float(size),
                  paperwidth=pw, source=f"{cls} {size}pt DIV={div}")


# classes class_layout knows without reading their files
_KNOWN_CLASSES = {"article", "report", "book", "IEEEtran", "acmart", "llncs", "revtex4-1", "revtex4-2", "elsarticle",
                  "scrartcl", "scrreprt", "scrbook"}


_VENUES: list[tuple[re.Pattern, tuple[float, float, int, float | None], str]] = [
    # (package name pattern, (textwidth, columnsep, columns, body pt or None = class option), source)
    (re.compile(r"(neurips|nips)(_?\d{4})?"), (5.5 * IN, 10.0, 1, 10.0), "neurips: textwidth 5.5in"),
    (re.compile(r"iclr\d{4}_conference"), (5.5 * IN, 10.0, 1, 10.0), "iclr: textwidth 5.5in"),
    (re.compile(r"icml\d{4}"), (6.75 * IN, 0.25 * IN, 2, 10.0), "icml: textwidth 6.75in, columnsep 0.25in"),
    (re.compile(r"(cvpr|iccv|wacv)(_?\d{4})?"), (6.875 * IN, 0.3125 * IN, 2, None),
     "cvpr: textwidth 6.875in, columnsep 0.3125in"),
    (re.compile(r"acl|acl_natbib|acl\d{4}|naacl\d{0,4}|naaclhlt\d{4}|emnlp\d{0,4}|emnlp_natbib"
                r"|eacl\d{0,4}|aacl\d{0,4}"),
     (16 * _UNITS["cm"], 0.6 * _UNITS["cm"], 2, None), "acl: textwidth 16cm, columnsep 0.6cm"),
    (re.compile(r"aaai\d{2,4}"), (7.0 * IN, 0.375 * IN, 2, 10.0), "aaai: textwidth 7in, columnsep 0.375in"),
]


def _venue(pkg: str):
    for pat, vals, src in _VENUES:
        if pat.fullmatch(pkg.lower()):
            return vals, src
    return None


# ---------------------------------------------------------------- length expressions

class _Unresolved(Exception):
    pass


_TOK = re.compile(r"\s*(?:(\d+(?:[.,]\d*)?|[.,]\d+)|\\([A-Za-z@]+)|([A-Za-z]+)|([-+*/()!]))")


class Lengths:
    """Evaluates TeX length expressions (`0.5\\linewidth`, `3.2in`, `\\dimexpr\\linewidth-2pt\\relax`)."""

    def __init__(self, values: dict[str, float], body_pt: float, macros: dict[str, str] | None = None,
                 user: dict[str, float] | None = None) -> None:
        self.values = values
        self.body = body_pt
        self.macros = macros if macros is not None else {}  # shared with copies: filled while reading
        self.user = user if user is not None else {}

    def with_values(self, **kw: float) -> "Lengths":
        v = dict(self.values)
        v.update(kw)
        return Lengths(v, self.body, self.macros, self.user)

    def eval(self, expr: str | None) -> float | None:
        if expr is None:
            return None
        try:
            return self._eval(str(expr), 0)
        except (_Unresolved, IndexError, ZeroDivisionError, ValueError):
            return None

    def number(self, expr: str | None) -> float | None:
        if expr is None:
            return None
        s = str(expr).strip().strip("{}").strip()
        s = re.sub(r"\\real\s*\{([^}]*)\}", r"\1", s)
        try:
            return float(s.replace(",", "."))
        except ValueError:
            return None

    def _eval(self, s: str, depth: int) -> float:
        if depth > 8:
            raise _Unresolved
        s = re.sub(r"\\(?:dimexpr|relax|numexpr|the|glueexpr)(?![A-Za-z@])", " ", s)
        s = re.sub(r"\\real\s*\{([^}]*)\}", r" \1 ", s)
        s = s.replace("{", " ").replace("}", " ")
        s = re.sub(r"\btrue\s*(?=[a-z]{2}\b)", "", s)
        toks: list[tuple[str, str]] = []
        pos = 0
        s = s.strip()
        while pos < len(s):
            m = _TOK.match(s, pos)
            if m is None or m.end() == pos:
                raise _Unresolved
            pos = m.end()
            if m.group(1) is not None:
                toks.append(("num", m.group(1).replace(",", ".")))
            elif m.group(2) is not None:
                toks.append(("mac", m.group(2)))
            elif m.group(3) is not None:
                toks.append(("unit", m.group(3)))
            else:
                toks.append(("op", m.group(4)))
        self._toks, self._i, self._depth = toks, 0, depth
        val, is_len = self._expr()
        if self._i != len(toks) or not is_len:
            raise _Unresolved
        return val

    def _peek(self):
        return self._toks[self._i] if self._i < len(self._toks) else (None, None)

    def _expr(self) -> tuple[float, bool]:
        val, is_len = self._term()
        while self._peek()[0] == "op" and self._peek()[1] in "+-":
            op = self._toks[self._i][1]
            self._i += 1
            v2, l2 = self._term()
            val = val + v2 if op == "+" else val - v2
            is_len = is_len or l2
        return val, is_len

    def _term(self) -> tuple[float, bool]:
        val, is_len = self._unary()
        while self._peek()[0] == "op" and self._peek()[1] in "*/":
            op = self._toks[self._i][1]
            self._i += 1
            v2, l2 = self._unary()
            if l2:
                raise _Unresolved
            val = val * v2 if op == "*" else val / v2
        return val, is_len

    def _unary(self) -> tuple[float, bool]:
        sign = 1.0
        while self._peek() in (("op", "-"), ("op", "+")):
            if self._toks[self._i][1] == "-":
                sign = -sign
            self._i += 1
        v, l = self._primary()
        return sign * v, l

    def _primary(self) -> tuple[float, bool]:
        kind, val = self._peek()
        if kind is None:
            raise _Unresolved
        if kind == "op" and val == "(":
            self._i += 1
            v, l = self._expr()
            if self._peek() != ("op", ")"):
                raise _Unresolved
            self._i += 1
            return v, l
        if kind == "num":
            self._i += 1
            num = float(val)
            k2, v2 = self._peek()
            if k2 == "unit":
                self._i += 1
                return num * self._unit(v2), True
            if k2 == "mac":
                self._i += 1
                return num * self._macro(v2), True
            return num, False
        if kind == "mac":
            self._i += 1
            return self._macro(val), True
        if kind == "unit":  # a bare unit: "pt" alone is not a length
            raise _Unresolved
        raise _Unresolved

    def _unit(self, u: str) -> float:
        if u in _UNITS:
            return _UNITS[u]
        if u == "em":
            return self.body
        if u == "ex":
            return 0.43 * self.body
        raise _Unresolved

    def _macro(self, name: str) -> float:
        if name in self.values:
            v = self.values[name]
            if v is None:
                raise _Unresolved
            return v
        if name in self.user:
            return self.user[name]
        if name in self.macros:
            saved = (self._toks, self._i, self._depth)
            try:
                return self._eval(self.macros[name], saved[2] + 1)
            finally:
                self._toks, self._i, self._depth = saved
        if name == "baselineskip":
            return 1.2 * self.body
        if name in ("z@",):
            return 0.0
        if name == "p@":
            return 1.0
        raise _Unresolved


# ---------------------------------------------------------------- reading the preamble

_PREAMBLE_CMD = re.compile(
    r"\\(usepackage|RequirePackage|PassOptionsToPackage|LoadClass|geometry|newgeometry|setlength|addtolength|twocolumn"
    r"|newcommand|renewcommand|providecommand|def|gdef|edef|xdef|DeclareOption|DeclareOptionX|input|onecolumn|newdimen|newlength|newskip"
    r"|textwidth|columnsep)(?![A-Za-z@])\*?"
)
_BEGIN_DOC = re.compile(r"\\begin\s*\{document\}")
_DOCCLASS = re.compile(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{([^}]*)\}")


class _Sources:
    """Source files of the paper, read once, comments blanked."""

    def __init__(self, paper: Paper) -> None:
        self.root = paper.root or os.path.dirname(os.path.abspath(paper.path))
        self.main = paper.extra.get("main_tex") or os.path.basename(paper.path)
        self.known = set(paper.extra.get("sources", []) or [])
        self._text: dict[str, str | None] = {}
        self._starts: dict[str, list[int]] = {}

    def text(self, rel: str) -> str | None:
        if rel not in self._text:
            from figlint.ingest.texsource import decode_bytes

            try:
                with open(os.path.join(self.root, rel), "rb") as fh:
                    raw = fh.read()
                self._text[rel] = strip_comments(decode_bytes(raw)[0].replace("\r\n", "\n"))
            except OSError:
                self._text[rel] = None
        return self._text[rel]

    def line_start(self, rel: str, line: int) -> int | None:
        t = self.text(rel)
        if t is None:
            return None
        starts = self._starts.get(rel)
        if starts is None:
            starts = [0] + [m.end() for m in re.finditer("\n", t)]
            self._starts[rel] = starts
        if line < 1 or line > len(starts):
            return None
        return starts[line - 1]


def _arg(t: str, i: int, kind: str = "{"):
    from figlint.ingest.texsource import read_arg

    return read_arg(t, i, kind)


def _preamble_events(src: _Sources, rel: str, depth: int = 0, out: list | None = None) -> list[tuple[str, str]]:
    """(file, text) chunks of preamble text in source order, `\\input` files inlined."""
    out = [] if out is None else out
    t = src.text(rel)
    if t is None or depth > 4:
        return out
    m = _BEGIN_DOC.search(t)
    end = m.start() if m else len(t)
    cur = 0
    for inc in re.finditer(r"\\(?:input|include)\s*\{([^}]*)\}", t[:end]):
        name = inc.group(1).strip()
        base = os.path.dirname(rel)
        cands = [name, name + ".tex"] if not name.endswith(".tex") else [name]
        target = None
        for c in cands:
            r = os.path.normpath(os.path.join(base, c)).replace(os.sep, "/")
            if r in src.known or (not src.known and os.path.isfile(os.path.join(src.root, r))):
                target = r
                break
        if target is None:
            continue
        out.append((rel, t[cur:inc.start()]))
        _preamble_events(src, target, depth + 1, out)
        cur = inc.end()
    out.append((rel, t[cur:end]))
    return out


def _geometry(keys: list[tuple[str, str | None]], lay: Layout, L: Lengths, twoside: bool, paperheight: float) -> None:
    """Apply geometry options (the horizontal ones) to `lay`, as geometry.sty computes them."""
    pw, ph = lay.paperwidth, paperheight
    width = left = right = hscale = None
    landscape = False
    for k, v in keys:
        if v is None:
            if k in _PAPERS:
                pw, ph = _PAPERS[k]
            elif k == "landscape":
                landscape = True
            elif k == "portrait":
                landscape = False
            elif k == "twocolumn":
                lay.columns = 2
            elif k == "onecolumn":
                lay.columns = 1
            elif k == "twoside":
                twoside = True
            continue
        Lp = L.with_values(paperwidth=pw)
        if k in ("paper", "papername") and v in _PAPERS:
            pw, ph = _PAPERS[v]
        elif k == "paper" and v + "paper" in _PAPERS:
            pw, ph = _PAPERS[v + "paper"]
        elif k == "paperwidth":
            pw = Lp.eval(v) or pw
        elif k == "papersize":
            parts = _split_opts(v)
            if parts:
                pw = Lp.eval(parts[0]) or pw
        elif k in ("width", "textwidth"):
            width = v
        elif k in ("total", "text", "body"):
            parts = _split_opts(v)
            if parts and parts[0] != "!":
                width = parts[0]
        elif k in ("margin", "hmargin"):
            parts = _split_opts(v)
            if len(parts) >= 2:
                left, right = parts[0], parts[1]
            elif parts:
                left = right = parts[0]
        elif k in ("left", "lmargin", "inner"):
            left = v
        elif k in ("right", "rmargin", "outer"):
            right = v
        elif k in ("hscale", "scale"):
            parts = _split_opts(v)
            hscale = parts[0] if parts else v
        elif k == "columnsep":
            cs = Lp.eval(v)
            if cs is not None:
                lay.columnsep = cs
    if landscape:
        pw, ph = ph, pw
    lay.paperwidth = pw
    Lp = L.with_values(paperwidth=pw)
    w = Lp.eval(width) if width else None
    if w is None:
        lv = Lp.eval(left) if left else None
        rv = Lp.eval(right) if right else None
        if lv is not None or rv is not None:
            other = (0.12 if twoside else 0.15) * pw
            w = pw - (lv if lv is not None else other) - (rv if rv is not None else other)
        elif hscale is not None and Lp.number(hscale) is not None:
            w = Lp.number(hscale) * pw
        else:
            w = 0.7 * pw
    if w and w > 0:
        lay.textwidth = w
        if "geometry" not in lay.source:
            lay.source = (lay.source + " + geometry").strip()


class _Reader:
    """Reads preamble commands in source order into a Layout (see the module docstring)."""

    def __init__(self, src: _Sources, cls: str, opts: list[str], lay: Layout) -> None:
        self.src = src
        self.cls = cls
        self.opts = opts
        self.lay = lay
        self.paper_h = next((_PAPERS[o][1] for o in reversed(opts) if o in _PAPERS), _PAPERS["letterpaper"][1])
        self.twoside = "twoside" in opts or cls == "book"
        self.L = Lengths({}, lay.body_pt or 10.0, {}, {})
        self.late: tuple | None = None  # NeurIPS: geometry set at \begin{document}
        self.geometry_loaded = False
        self.geometry_pending: list[tuple[str, str | None]] = []  # \PassOptionsToPackage{..}{geometry}
        self.geometry_keys: list[tuple[str, str | None]] = []  # geometry options so far (they accumulate)
        self.read_styles: set[str] = set()
        self.class_paper: float | None = None  # paper width before the first geometry load
        self.defs: dict[str, str] = {}  # argument-free macros defined so far (for \normalsize)
        self._local: dict[str, str] | None = None

    def ctx(self) -> Lengths:
        lay = self.lay
        return self.L.with_values(textwidth=lay.textwidth, linewidth=lay.textwidth, hsize=lay.textwidth,
                                  columnwidth=lay.columnwidth, paperwidth=lay.paperwidth, columnsep=lay.columnsep)

    def local_file(self, name: str) -> str | None:
        """A style or class file shipped with the paper (TeX finds these first), case-insensitively."""
        if self._local is None:
            self._local = {}
            main_dir = os.path.dirname(os.path.join(self.src.root, self.src.main))
            for d in dict.fromkeys((main_dir, self.src.root)):
                try:
                    for e in os.listdir(d):
                        if e.lower().endswith((".sty", ".cls")):
                            self._local.setdefault(e.lower(), os.path.join(d, e))
                except OSError:
                    pass
        if "/" in name:  # \documentclass{Definitions/mdpi}: a path from the main file's folder
            main_dir = os.path.dirname(os.path.join(self.src.root, self.src.main))
            path = os.path.normpath(os.path.join(main_dir, name))
            inside = os.path.abspath(path).startswith(os.path.abspath(self.src.root) + os.sep)
            return path if inside and os.path.isfile(path) else None
        return self._local.get(name.lower())

    def style(self, name: str, depth: int, options: list[str] | None = None) -> bool:
        """Read a local .sty/.cls for the layout commands it runs; False when there is none.

        Its options are processed first (a class sees the \\documentclass options, a package
        its own), so that `\\if<switch>` branches the options rule out are not read."""
        path = self.local_file(name)
        if path is None or path in self.read_styles or depth > 3:
            return False
        self.read_styles.add(path)
        try:
            if os.path.getsize(path) > 400_000:
                return False
            from figlint.ingest.texsource import decode_bytes

            with open(path, "rb") as fh:
                text = strip_comments(decode_bytes(fh.read())[0])
        except OSError:
            return False
        end = re.search(r"^[ \t]*\\endinput(?![A-Za-z@])", text, re.M)  # TeX reads no further
        if end is not None:
            text = text[:end.start()]
        opts = self.opts if options is None else options
        flags = option_flags(text, opts)
        text = _drop_iffalse(resolve_ifs(text, flags))
        before = (self.lay.textwidth, self.lay.columns, self.lay.columnsep, self.lay.body_pt)
        self.run(text, depth + 1, undecided(text))
        if name.endswith(".cls") and flags.get("@twocolumn"):
            # a class that leaves \if@twocolumn true: \maketitle sets the body in two columns
            # (article's \maketitle runs \twocolumn[\@maketitle]; copernicus.cls final stage)
            self.lay.columns = 2
        if (self.lay.textwidth, self.lay.columns, self.lay.columnsep, self.lay.body_pt) != before:
            self.lay.source += f" + {os.path.basename(path)}"
        return True

    def load_class(self, base: str, load_opts: list[str], depth: int) -> None:
        """`\\LoadClass[..]{base}` in a paper's own class: the base class's layout with the
        document's options and those given here (a class in the table), or its own file."""
        if base in _KNOWN_CLASSES:
            opts = self.opts + load_opts
            base_lay = class_layout(base, opts)
            if load_opts or base not in ("article", "report", "book"):
                lay = self.lay
                lay.textwidth, lay.columnsep, lay.columns = base_lay.textwidth, base_lay.columnsep, base_lay.columns
                lay.paperwidth = base_lay.paperwidth
                lay.body_pt = base_lay.body_pt
                lay.source += f" + LoadClass {base_lay.source}"
            return
        self.style(base + ".cls", depth)

    def package(self, pkg: str, popts: list[tuple[str, str | None]], depth: int) -> None:
        lay = self.lay
        if pkg == "geometry":
            self.geometry_loaded = True
            # class options are global: geometry sees the paper size and orientation
            inherited = [(x, None) for x in self.opts if x in _PAPERS or x == "landscape"]
            self.geometry_keys = inherited + self.geometry_pending + popts
            self.geometry_pending = []
            if self.class_paper is not None:  # loaded again (both branches of a switch we cannot
                lay.paperwidth = self.class_paper  # decide): starts from the class's paper, not the last load's
            else:
                self.class_paper = lay.paperwidth
            _geometry(self.geometry_keys, lay, self.ctx(), self.twoside, self.paper_h)
        elif pkg == "fullpage":
            margin = 1.5 * _UNITS["cm"] if any(k == "cm" for k, _ in popts) else IN
            lay.textwidth = lay.paperwidth - 2 * margin
            lay.source += " + fullpage"
        else:
            v = _venue(pkg)
            if v is None:
                self.style(pkg + ".sty", depth, [k if x is None else f"{k}={x}" for k, x in popts])
                return
            (tw, cs, cols, vbody), vsrc = v
            if vsrc.startswith("neurips"):
                self.late = (tw, cs, cols, vbody)
            lay.textwidth, lay.columnsep, lay.columns = tw, cs, cols
            if vbody is not None:
                lay.body_pt = vbody
            lay.source = f"{self.cls} + {vsrc}"
            if vsrc.startswith("acl"):
                lay.paperwidth = _PAPERS["a4paper"][0]

    def run(self, text: str, depth: int = 0, undecided_spans: list[tuple[int, int]] | None = None) -> None:
        lay, L = self.lay, self.L
        pos = 0
        # plain TeX assignments `\\<dimen> <length>` to registers declared so far, in order
        sets = [m for m in _DIMEN_SET.finditer(text) if m.group(1) not in _LAYOUT_NAMES] if L.user or (
            "\\newdimen" in text or "\\newlength" in text) else []
        k = 0
        while True:
            cm = _PREAMBLE_CMD.search(text, pos)
            while k < len(sets) and (sets[k].start() < pos or sets[k].group(1) not in L.user):
                if sets[k].start() >= pos and cm is not None and sets[k].start() > cm.start():
                    break  # not declared yet: it may be by the command coming next
                k += 1
            dm = sets[k] if k < len(sets) and sets[k].group(1) in L.user and sets[k].start() >= pos else None
            if dm is not None and (cm is None or dm.start() < cm.start()):
                k += 1
                # mnras.cls: \newdimen\SFB@measure \SFB@measure 42pc \setlength\textwidth{\SFB@measure}
                if not _used_in_expression(text, dm.start()):
                    val = self.ctx().eval(dm.group(2))
                    if val is not None:
                        L.user[dm.group(1)] = val
                pos = dm.end()
                continue
            if cm is None:
                break
            name, i = cm.group(1), cm.end()
            pos = i
            if name in ("newdimen", "newlength", "newskip"):  # a register: 0pt until assigned
                mm = re.match(r"\s*\{?\s*\\([A-Za-z@]+)", text[i:i + 80])
                if mm and mm.group(1) not in ("textwidth", "columnsep", "linewidth", "columnwidth"):
                    L.user.setdefault(mm.group(1), 0.0)
            elif name in ("usepackage", "RequirePackage"):
                o = _arg(text, i, "[")
                j = o[2] if o else i
                a = _arg(text, j, "{")
                if a is None or text[a[0] - 1:a[0]] != "{":
                    continue
                popts = _kv(text[o[0]:o[1]]) if o else []
                for pkg in [p.strip() for p in text[a[0]:a[1]].split(",") if p.strip()]:
                    self.package(pkg, popts, depth)
            elif name == "PassOptionsToPackage":
                a = _arg(text, i, "{")
                b = _arg(text, a[2], "{") if a else None
                if a and b and text[b[0]:b[1]].strip() == "geometry":
                    self.geometry_pending += _kv(text[a[0]:a[1]])
            elif name == "LoadClass":
                o = _arg(text, i, "[")
                a = _arg(text, o[2] if o else i, "{")
                if a is not None:
                    self.load_class(text[a[0]:a[1]].strip(), _split_opts(text[o[0]:o[1]]) if o else [], depth)
            elif name in ("DeclareOption", "DeclareOptionX"):  # runs only if chosen (styleread.option_flags)
                a = _arg(text, i, "{")
                d = _arg(text, a[2], "[") if a and text[i - 1] != "*" else None
                b = _arg(text, d[2] if d else a[2], "{") if a and text[i - 1] != "*" else None
                pos = (b or a or (0, 0, i))[2]
            elif name == "input":  # \input{size12.clo}: the class takes the standard body size
                mm = re.match(r"\s*\{?\s*size1([012])(?:\.clo)?\s*\}?", text[i:i + 40])
                if mm:
                    lay.body_pt = float(10 + int(mm.group(1)))
            elif name in ("geometry", "newgeometry"):
                a = _arg(text, i, "{")
                if a is not None and (name == "geometry" or self.geometry_loaded):
                    if name == "newgeometry":  # starts over, keeping the paper size
                        self.geometry_keys = [(k, v) for k, v in self.geometry_keys
                                              if k in _PAPERS or k in ("paper", "papername", "paperwidth",
                                                                       "papersize", "landscape", "portrait")]
                    self.geometry_keys = self.geometry_keys + _kv(text[a[0]:a[1]])
                    _geometry(self.geometry_keys, lay, self.ctx(), self.twoside, self.paper_h)
            elif name in ("setlength", "addtolength"):
                a = _arg(text, i, "{")
                if a is None:
                    continue
                target = text[a[0]:a[1]].strip()
                b = _arg(text, a[2], "{")
                if b is None or not target.startswith("\\"):
                    continue
                val = self.ctx().eval(text[b[0]:b[1]])
                if val is None:
                    continue
                tname = target[1:]
                cur = {"textwidth": lay.textwidth, "columnsep": lay.columnsep}.get(tname, L.user.get(tname))
                if name == "addtolength":
                    if cur is None:
                        continue
                    val = cur + val
                if tname == "textwidth":
                    if val > 0:  # a non-positive text width is a misreading, not a layout
                        lay.textwidth = val
                elif tname == "columnsep":
                    lay.columnsep = val
                elif tname not in ("linewidth", "hsize", "columnwidth", "paperwidth"):
                    L.user[tname] = val
            elif name in ("textwidth", "columnsep"):  # plain TeX assignment: \textwidth=6.5in
                mm = re.match(r"\s*=?\s*([-+]?\s*[\d.,]+\s*(?:true\s*)?[a-z]{2})(?![a-z])", text[i:i + 40])
                if mm and not _used_in_expression(text, cm.start()):
                    val = self.ctx().eval(mm.group(1))
                    if val is not None and (val > 0 or name == "columnsep"):
                        if name == "textwidth":
                            lay.textwidth = val
                        else:
                            lay.columnsep = val
            elif name == "onecolumn":
                lay.columns = 1
            elif name == "twocolumn":
                if not re.match(r"\s*\[", text[i:i + 5]):  # \twocolumn[..] typesets a title: not the layout
                    lay.columns = 2
            elif name in ("newcommand", "renewcommand", "providecommand", "def", "gdef", "edef", "xdef"):
                # a definition's body runs only where the macro is used: its \twocolumn or
                # \setlength do not set the layout (suthesis-2e.sty's \@endpart)
                d = definition(text, i, "def" if name.endswith("def") else "newcommand")
                if d is None:
                    continue
                mname, takes_args, b0, b1 = d
                pos = b1 + 1
                body_txt = text[b0:b1]
                if not takes_args and len(body_txt) < 400:
                    self.defs[mname] = body_txt
                if mname == "normalsize":  # the class's own body size (ametsoc.cls: 12 pt in draft)
                    size = normalsize(body_txt, self.defs)
                    at = cm.start()
                    if size is not None and not any(a <= at < b for a, b in undecided_spans or ()) and (
                            text.count("{", 0, at) <= text.count("}", 0, at)):  # not in an argument
                        # (asme2ej.cls defines one per size in \ifthenelse{\@ptsize = 0}{..}{..})
                        lay.body_pt = size
                elif not takes_args and len(body_txt) < 120 and "\\if" not in body_txt and re.search(
                        r"\\(?:line|text|column)width|\d\s*(?:pt|in|cm|mm|bp)", body_txt):
                    L.macros[mname] = body_txt


_LAYOUT_NAMES = {"textwidth", "columnsep", "linewidth", "columnwidth", "hsize", "paperwidth"}
# possessive spaces: blanked comments leave long runs of them, which nested \s* would backtrack over
_DIMEN_SET = re.compile(r"\\([A-Za-z@]+)\s*+=?\s*+([-+]?\s*+[\d.,]++\s*+(?:true\s*+)?(?:pt|pc|in|cm|mm|bp|dd|cc|sp|em|ex))(?![a-z])")


def _used_in_expression(text: str, at: int) -> bool:
    """`\\textwidth` at `at` is read, not assigned: inside an expression or a key's value
    (`textwidth=\\dimexpr\\textwidth-2cm\\relax`, `0.5\\textwidth`)."""
    before = text[max(0, at - 40):at].rstrip()
    return bool(re.search(r"(\\dimexpr|\\glueexpr|[=({\[+\-*/.,\d])$", before))


_IF_TOKEN = re.compile(r"\\(if[A-Za-z@]*|fi)(?![A-Za-z@])")


def _drop_iffalse(text: str) -> str:
    """Blank out `\\iffalse ... \\fi` blocks (style files park old settings there), nested ifs counted."""
    if "\\iffalse" not in text:
        return text
    out = []
    cur = 0
    depth = 0
    start = None
    for m in _IF_TOKEN.finditer(text):
        tok = m.group(1)
        if start is None:
            if tok == "iffalse":
                start, depth = m.start(), 1
        elif tok == "fi":
            depth -= 1
            if depth == 0:
                out.append(text[cur:start])
                cur, start = m.end(), None
        else:
            depth += 1
    out.append(text[cur:] if start is None else text[cur:start])
    return "".join(out)


def document_layout(paper: Paper, src: _Sources | None = None) -> tuple[Layout, Lengths]:
    """The document's text block and a length evaluator for its preamble definitions."""
    src = src or _Sources(paper)
    main = src.main
    t = src.text(main) or ""
    m = _DOCCLASS.search(t)
    cls = (m.group(2).strip() if m else paper.extra.get("documentclass") or "") or "article"
    opts = [o.strip() for o in (m.group(1) or "").split(",")] if m and m.group(1) else []
    opts = [o.replace(" ", "").replace("\n", "") for o in opts]  # LaTeX drops spaces in options: `10 pt` is 10pt
    opts = [o for o in opts if o]
    lay = class_layout(cls, opts)
    r = _Reader(src, cls, opts, lay)
    if lay.notes and r.local_file(cls + ".cls"):  # a class shipped with the paper: read what it sets
        if r.style(cls + ".cls", 0):
            lay.notes = [f"class {cls!r} read from its .cls in the paper's tree"]
    chunks = _preamble_events(src, main)
    # the preamble's own switches (`\newif\ifarxiv \arxivtrue`): the branch not taken is not read
    flags = option_flags("\n".join(text for _rel, text in chunks), opts)
    for _rel, text in chunks:
        r.run(_drop_iffalse(resolve_ifs(text, flags)))
    if r.late is not None:
        lay.textwidth, lay.columnsep, lay.columns = r.late[0], r.late[1], r.late[2]
        if r.late[3] is not None:
            lay.body_pt = r.late[3]
    if lay.body_pt is None:
        lay.body_pt = 10.0
    r.L.body = lay.body_pt
    return lay, r.L


# ---------------------------------------------------------------- graphics files

def _png_info(data: bytes) -> tuple[int, int, float, float] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", data[16:24])
    xres = yres = 0.0
    i = 8
    while i + 8 <= len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        tag = data[i + 4:i + 8]
        if tag == b"pHYs" and i + 17 <= len(data):
            px, py, unit = struct.unpack(">IIB", data[i + 8:i + 17])
            if unit == 1:  # pixels per metre; pdfTeX rounds to whole DPI
                xres, yres = float(round(px * 0.0254)), float(round(py * 0.0254))
            break
        if tag in (b"IDAT", b"IEND"):
            break
        i += 12 + n
    return w, h, xres, yres


def _exif_res(seg: bytes) -> tuple[float, float]:
    if not seg.startswith(b"Exif\x00\x00"):
        return 0.0, 0.0
    tiff = seg[6:]
    if len(tiff) < 8:
        return 0.0, 0.0
    e = "<" if tiff[:2] == b"II" else ">"
    try:
        off = struct.unpack(e + "I", tiff[4:8])[0]
        n = struct.unpack(e + "H", tiff[off:off + 2])[0]
        vals: dict[int, float] = {}
        for k in range(n):
            ent = tiff[off + 2 + 12 * k: off + 14 + 12 * k]
            tag, typ, _cnt = struct.unpack(e + "HHI", ent[:8])
            if tag in (0x011A, 0x011B) and typ == 5:
                p = struct.unpack(e + "I", ent[8:12])[0]
                num, den = struct.unpack(e + "II", tiff[p:p + 8])
                vals[tag] = num / den if den else 0.0
            elif tag == 0x0128:
                vals[tag] = struct.unpack(e + "H", ent[8:10])[0]
    except (struct.error, IndexError):
        return 0.0, 0.0
    unit = vals.get(0x0128, 2)
    f = 2.54 if unit == 3 else 1.0
    if unit not in (2, 3):
        return 0.0, 0.0
    return round(vals.get(0x011A, 0.0) * f), round(vals.get(0x011B, 0.0) * f)


def _jpeg_info(data: bytes) -> tuple[int, int, float, float] | None:
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    xres = yres = 0.0
    exif = (0.0, 0.0)
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        seglen = struct.unpack(">H", data[i + 2:i + 4])[0]
        seg = data[i + 4:i + 2 + seglen]
        if marker == 0xE0 and seg.startswith(b"JFIF\x00") and len(seg) >= 12:
            unit, dx, dy = seg[7], struct.unpack(">H", seg[8:10])[0], struct.unpack(">H", seg[10:12])[0]
            if unit == 1:
                xres, yres = float(dx), float(dy)
            elif unit == 2:
                xres, yres = float(round(dx * 2.54)), float(round(dy * 2.54))
        elif marker == 0xE1:
            exif = _exif_res(seg)
        elif 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and len(seg) >= 5:
            h, w = struct.unpack(">HH", seg[1:5])
            if not (xres and yres) and exif[0] and exif[1]:
                xres, yres = exif
            return w, h, xres, yres
        i += 2 + seglen
    return None


def raster_info(path: str) -> tuple[int, int, float, float] | None:
    """(width px, height px, x DPI, y DPI) from the file header; DPI 0 when the file records none."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
            if head[:2] == b"\xff\xd8":
                info = _jpeg_info(head)
                if info is None:  # the frame header sits after a large APP segment
                    info = _jpeg_info(head + fh.read())
                return info
    except OSError:
        return None
    return _png_info(head)


@dataclass
class _Content:
    """A graphics file's content in its own frame (PostScript points, top-left origin)."""

    width: float  # bp
    height: float
    # text, size, font, box, colour, writing direction
    spans: list[tuple[str, float, str, tuple, int | None, tuple]] = field(default_factory=list)
    # w px, h px, printed box (cut to the page box and clips), whole placed box, xref
    images: list[tuple[int, int, tuple, tuple, int | None]] = field(default_factory=list)
    # (bbox, stroke, fill, width, items, dash, vertex runs)
    drawings: list = field(default_factory=list)  # model.Drawing, in the file's coordinates
    pixels: tuple[int, int] | None = None  # raster file: its pixel size
    heavy: bool = False  # a PDF whose vector paths were not read (see _MAX_DRAWING_BYTES)


# A PDF graphic with more page content than this (a scatter plot of ~50k points is
# 2.3 MB) keeps its text and images but not its paths: reading them takes seconds.
_MAX_DRAWING_BYTES = 1_000_000


def _pdf_content(path: str, page_no: int) -> _Content | None:
    try:
        from figlint.ingest.mupdf import open_pdf, pymupdf
    except ImportError:  # pragma: no cover - pymupdf is a dependency
        return None
    try:
        doc = open_pdf(path, filetype="pdf")
    except Exception:  # noqa: BLE001 - unreadable graphics are skipped (FL307 covers missing ones)
        return None
    try:
        if doc.needs_pass or doc.page_count < 1:
            return None
        page = doc[max(0, min(page_no, doc.page_count) - 1)]
        from figlint.ingest.pdf_forms import FormInflater

        forms = FormInflater(doc)
        forms.page(page.number)  # a scatter's marker forms decoded once, not once per marker
        rect = page.rect
        c = _Content(width=rect.width, height=rect.height)
        ox, oy = rect.x0, rect.y0
        with forms.text_pass(page.number):  # the markers hold no text: not interpreted for it
            text = page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
        marks = glyph_marks(text)  # a symbol font's glyphs are marks (R's Dingbats points)
        fix_type3_sizes(page.parent, text)
        from figlint.ingest.pdf_layout import compose_accents

        compose_accents(text)  # an OT1 font's accent glyphs over their letters (pdf_layout)
        paths = None
        if len(page.read_contents()) > _MAX_DRAWING_BYTES:
            c.heavy = True  # paths not read: tens of thousands of marks cost seconds, and no rule needs each
        else:
            with forms.path_pass(page.number):  # the markers read as their paths alone, where that is the same
                paths = page.get_cdrawings(extended=True)
            drop_hidden_text(page, text, paths)  # text a later opaque fill paints over is not printed
            paths += marks  # (after the hidden-text check: their paint order is not known)
        for block in text["blocks"]:
            for line in block.get("lines", ()):
                for s in line.get("spans", ()):
                    if not s["text"].strip():
                        continue
                    x0, y0, x1, y1 = s["bbox"]
                    c.spans.append((s["text"].strip(), float(s["size"]), s.get("font", ""),
                                    (x0 - ox, y0 - oy, x1 - ox, y1 - oy), s.get("color"),
                                    tuple(line.get("dir", (1.0, 0.0)))))
        # get_image_info interprets the whole page again: only when the page uses images at all.
        # Not get_image_info(xrefs=True): it decodes every image in full (a decompression bomb).
        from figlint.ingest.pdf_layout import cut_from, image_info_xrefs

        for info in image_info_xrefs(page):  # images outside the page box never print: left out or cut
            x0, y0, x1, y1 = info["bbox"]
            whole = cut_from(info["bbox"], info["full"]) or (x0, y0, x1, y1)
            c.images.append((int(info["width"]), int(info["height"]), (x0 - ox, y0 - oy, x1 - ox, y1 - oy),
                             (whole[0] - ox, whole[1] - oy, whole[2] - ox, whole[3] - oy), info.get("xref") or None))
        if paths is not None:
            c.drawings = clipped_drawings(paths, ox, oy, page_box=tuple(rect))
        return c
    except Exception:  # noqa: BLE001 - a damaged page is skipped like an unreadable file
        return None
    finally:
        doc.close()


def _raster_content(path: str) -> _Content | None:
    info = raster_info(path)
    if info is None or info[0] <= 0 or info[1] <= 0:
        return None
    w, h, xres, yres = info
    # pdfTeX: the file's resolution when it records one, else \pdfimageresolution (72)
    xres = xres if xres > 0 else 72.0
    yres = yres if yres > 0 else 72.0
    return _Content(width=w * 72.0 / xres, height=h * 72.0 / yres, pixels=(w, h))


# ---------------------------------------------------------------- placing one graphic

_SCAN = re.compile(
    r"\\(begin|end)\s*\{(minipage|subfigure\*?|subtable|wrapfigure\*?|wraptable|adjustbox|sidewaysfigure\*?"
    r"|strip|widetext|adjustwidth\*?)\}"
    r"|\\(parbox|resizebox\*?|scalebox|adjustbox)(?![A-Za-z@])"
)
_GRAPHIC_AT = re.compile(r"\\includegraphics(?![A-Za-z@])")


def _frames(t: str, start: int, pos: int) -> list[tuple]:
    """Enclosing width-changing constructs around position `pos`, outermost first."""
    from figlint.ingest.texsource import read_args

    stack: list[tuple] = []
    for m in _SCAN.finditer(t, start, pos):
        if m.group(1) == "begin":
            env = m.group(2)
            if env in ("minipage", "subfigure", "subfigure*", "subtable"):
                args, _ = read_args(t, m.end(), "[[[{")
                w = t[args[3][0]:args[3][1]] if args[3] else None
                stack.append((env, "box", w))
            elif env.startswith(("wrapfigure", "wraptable")):
                args, _ = read_args(t, m.end(), "[{[{")
                w = t[args[3][0]:args[3][1]] if args[3] else None
                stack.append((env, "line", w))
            elif env == "adjustbox":
                a = _arg(t, m.end(), "{")
                stack.append((env, "adjust", _kv(t[a[0]:a[1]]) if a else []))
            elif env.startswith("adjustwidth"):  # changepage: the margins move by {left}{right}
                args, _ = read_args(t, m.end(), "{{")
                if all(args):
                    stack.append((env, "adjw", (t[args[0][0]:args[0][1]], t[args[1][0]:args[1][1]])))
            elif env in ("strip", "widetext"):  # cuted / revtex: full text width inside two columns
                stack.append((env, "wide", None))
            else:
                stack.append((env, "sideways", None))
        elif m.group(1) == "end":
            env = m.group(2)
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == env:
                    del stack[k:]
                    break
        else:
            mac = m.group(3)
            if mac == "parbox":
                args, _ = read_args(t, m.end(), "[[[{{")
                if args[3] and args[4] and args[4][0] <= pos <= args[4][1]:
                    stack.append(("\\parbox", "line", t[args[3][0]:args[3][1]]))
            elif mac.startswith("resizebox"):
                args, _ = read_args(t, m.end(), "{{{")
                if all(args) and args[2][0] <= pos <= args[2][1]:
                    stack.append(("\\resizebox", "resize", (t[args[0][0]:args[0][1]], t[args[1][0]:args[1][1]])))
            elif mac == "scalebox":
                args, _ = read_args(t, m.end(), "{[{")
                if args[0] and args[2] and args[2][0] <= pos <= args[2][1]:
                    stack.append(("\\scalebox", "scale", (t[args[0][0]:args[0][1]],
                                                          t[args[1][0]:args[1][1]] if args[1] else None)))
            elif mac == "adjustbox":
                args, _ = read_args(t, m.end(), "{{")
                if all(args) and args[1][0] <= pos <= args[1][1]:
                    stack.append(("\\adjustbox", "adjust", _kv(t[args[0][0]:args[0][1]])))
    return stack


def _trim(opts: dict[str, Any], L: Lengths) -> tuple[float, float, float, float] | None:
    """trim=l b r t or viewport=llx lly urx ury -> (left, bottom, right, top) or viewport in bp."""
    for key in ("trim", "viewport"):
        v = opts.get(key)
        if not isinstance(v, str):
            continue
        parts = v.replace(",", " ").split()
        if len(parts) != 4:
            return None
        vals = []
        for p in parts:
            try:
                vals.append(float(p))  # bare numbers are bp
            except ValueError:
                x = L.eval(p)
                if x is None:
                    return None
                vals.append(x / BP)
        return (key, *vals)
    return None


def _true(v: Any) -> bool:
    return v is True or (isinstance(v, str) and v.strip().lower() in ("true", ""))


@dataclass
class Placed:
    """One graphic as printed: its own-axis scale factors and its box, in bp."""

    sx: float
    sy: float
    width: float  # printed box, bp
    height: float
    clip_box: tuple[float, float, float, float] | None  # visible part, in the file's frame (bp)
    offset: tuple[float, float]  # file-frame origin of the visible part
    rotated: bool
    how: str


def place(content: _Content, opts: dict[str, Any], L: Lengths, post: list[tuple]) -> Placed | None:
    """Size of one graphic with these graphicx keys, in context L (TeX pt); None if not computable."""
    nat_w, nat_h = content.width, content.height  # bp, file frame
    ox, oy = 0.0, 0.0
    clip_box = None
    tr = _trim(opts, L)
    if tr is not None:
        key, a, b, c, d = tr
        if key == "trim":  # left bottom right top
            ox, oy = a, d
            nat_w, nat_h = content.width - a - c, content.height - b - d
        else:  # viewport llx lly urx ury (bottom-left origin)
            ox, oy = a, content.height - d
            nat_w, nat_h = c - a, d - b
        if nat_w <= 0 or nat_h <= 0:
            return None
        clip_box = (ox, oy, ox + nat_w, oy + nat_h) if _true(opts.get("clip", False)) else None
    keys = list(opts)
    angle = L.number(opts.get("angle")) if "angle" in opts else None
    rotated = angle is not None and round(angle) % 180 == 90
    size_keys = [k for k in keys if k in ("width", "height", "totalheight")]
    rotate_first = rotated and size_keys and keys.index("angle") < keys.index(size_keys[0])
    # sizes in TeX pt along the file's own axes
    a_nat, b_nat = nat_w * BP, nat_h * BP
    W = L.eval(opts.get("width")) if "width" in opts and opts.get("width") != "!" else None
    if W is None and str(opts.get("width", "")).strip() == "\\maxwidth" and "maxwidth" not in L.macros:
        # knitr's \maxwidth: the natural width, capped at \linewidth
        lw = L.values.get("linewidth")
        W = min(a_nat, lw) if lw else None
    hkey = "height" if "height" in opts else ("totalheight" if "totalheight" in opts else None)
    H = L.eval(opts.get(hkey)) if hkey and opts.get(hkey) != "!" else None
    if ("width" in opts and opts.get("width") != "!" and W is None) or (hkey and opts.get(hkey) != "!" and H is None):
        return None  # a size we cannot evaluate (\textheight, an unknown macro): do not guess
    if rotate_first:  # width/height then constrain the rotated box: swap the axes they act on
        W, H = H, W
    how = []
    if W is not None and H is not None:
        sa, sb = W / a_nat, H / b_nat
        if _true(opts.get("keepaspectratio", False)):
            sa = sb = min(sa, sb)
        how.append("width+height")
    elif W is not None:
        sa = sb = W / a_nat
        how.append(f"width={opts.get('width')}")
    elif H is not None:
        sa = sb = H / b_nat
        how.append(f"height={opts.get(hkey)}")
    elif "scale" in opts:
        s = L.number(opts.get("scale"))
        if s is None or s <= 0:
            return None
        sa = sb = s
        how.append(f"scale={s:g}")
    else:
        sa = sb = 1.0
        how.append("natural size")
    # enclosing \resizebox/\scalebox/adjustbox, innermost first
    for kind, params, Lf in reversed(post):
        bw, bh = (b_nat * sb, a_nat * sa) if rotated else (a_nat * sa, b_nat * sb)
        fx = fy = None
        if kind == "resize":
            rw, rh = params
            Wr = Lf.eval(rw) if rw.strip() != "!" else None
            Hr = Lf.eval(rh) if rh.strip() != "!" else None
            if Wr is not None:
                fx = Wr / bw
                fy = Hr / bh if Hr is not None else fx
            elif Hr is not None:
                fx = fy = Hr / bh
            how.append("\\resizebox")
        elif kind == "scale":
            fx = Lf.number(params[0])
            fy = Lf.number(params[1]) if params[1] else fx
            how.append("\\scalebox")
        elif kind == "adjust":
            for k, v in params:
                if k == "width" and v:
                    Wr = Lf.eval(v)
                    fx = fy = Wr / bw if Wr else None
                elif k == "max width" and v:
                    Wr = Lf.eval(v)
                    fx = fy = min(1.0, Wr / bw) if Wr else None
                elif k == "height" and v:
                    Hr = Lf.eval(v)
                    fx = fy = Hr / bh if Hr else None
                elif k == "scale" and v:
                    fx = fy = Lf.number(v)
            how.append("adjustbox")
        if fx and fy and fx > 0 and fy > 0:
            if rotated:
                fx, fy = fy, fx
            sa, sb = sa * fx, sb * fy
    a_pt, b_pt = a_nat * sa, b_nat * sb
    w_bp, h_bp = a_pt / BP, b_pt / BP
    if rotated:
        w_bp, h_bp = h_bp, w_bp
    return Placed(sx=sa, sy=sb, width=w_bp, height=h_bp, clip_box=clip_box, offset=(ox, oy),
                  rotated=rotated, how=", ".join(how))


# ---------------------------------------------------------------- figures

def set_at_text_width(fig: Figure) -> bool:
    """The float spans the text block whatever the columns: a wide float (figure*), or any
    float after \\onecolumn (latex.py records the column switch in force at its \\begin).
    FL111 measures it against the text block."""
    return (fig.env or "figure") in _WIDE_ENVS or fig.extra.get("columns_set") == 1


def _base_context(fig: Figure, lay: Layout, L: Lengths) -> Lengths:
    tw, cw = lay.textwidth, lay.columnwidth
    env = fig.env or "figure"
    if set_at_text_width(fig):
        line = tw
    elif env in _SIDEWAYS_ENVS:
        line = None  # \linewidth is \textheight on a rotated page: unknown here
    else:
        line = cw
    return L.with_values(textwidth=tw, columnwidth=cw, linewidth=line, hsize=line,
                         paperwidth=lay.paperwidth, columnsep=lay.columnsep)


def _context_for(frames: list[tuple], base: Lengths) -> tuple[Lengths, list[tuple]]:
    ctx = base
    post: list[tuple] = []
    for env, kind, param in frames:
        if kind == "box":
            w = ctx.eval(param)
            ctx = ctx.with_values(linewidth=w, hsize=w, textwidth=w, columnwidth=w)
        elif kind == "line":
            w = ctx.eval(param)
            ctx = ctx.with_values(linewidth=w, hsize=w)
        elif kind == "adjw":
            left, right = (ctx.eval(v) if v.strip() else 0.0 for v in param)
            lw = ctx.values.get("linewidth")
            w = lw - left - right if None not in (lw, left, right) else None
            ctx = ctx.with_values(linewidth=w, hsize=w)
        elif kind == "wide":
            tw = ctx.values.get("textwidth")
            ctx = ctx.with_values(linewidth=tw, hsize=tw)
        elif kind == "sideways":
            ctx = ctx.with_values(linewidth=None, hsize=None)
        elif kind in ("resize", "scale", "adjust"):
            post.append((kind, param, ctx))
    return ctx, post


def _graphic_pos(src: _Sources, fig: Figure, entry: dict, ordinal: int) -> tuple[str, int, int] | None:
    """(file, scan start, position of the \\includegraphics) for one graphics entry."""
    loc = entry.get("location") or {}
    rel, line = loc.get("file"), loc.get("line")
    if not rel or not line:
        return None
    ls = src.line_start(rel, line)
    if ls is None:
        return None
    t = src.text(rel) or ""
    le = t.find("\n", ls)
    le = len(t) if le < 0 else le
    hits = [m.start() for m in _GRAPHIC_AT.finditer(t, ls, le)]
    pos = hits[min(ordinal, len(hits) - 1)] if hits else ls
    start = 0
    if fig.location.file == rel and fig.location.line:
        fs = src.line_start(rel, fig.location.line)
        if fs is not None and fs <= pos:
            start = fs
    return rel, start, pos


def fill_from_graphics(paper: Paper) -> Paper:
    """Fill each LaTeX figure's printed content from its graphics files (no compiled PDF)."""
    src = _Sources(paper)
    try:
        lay, L = document_layout(paper, src)
    except Exception as exc:  # noqa: BLE001 - layout is best effort; never break linting
        paper.extra["source_layout"] = {"error": f"{type(exc).__name__}: {exc}"}
        return paper
    paper.extra["source_layout"] = lay.as_dict()
    if paper.body_font_size is None:
        paper.body_font_size = lay.body_pt
    cache: dict[tuple[str, int], _Content | None] = {}
    for fig in paper.figures:
        try:
            _fill_figure(fig, src, lay, L, cache)
        except Exception as exc:  # noqa: BLE001 - one odd figure must not stop the others
            fig.extra["placement_error"] = f"{type(exc).__name__}: {exc}"
    return paper


def _fill_figure(fig: Figure, src: _Sources, lay: Layout, L: Lengths,
                 cache: dict[tuple[str, int], _Content | None]) -> None:
    entries = fig.extra.get("graphics_options") or []
    if not entries or fig.spans or fig.images or fig.drawings:
        return
    base = _base_context(fig, lay, L)
    seen: dict[tuple, int] = {}
    placed: list[tuple[dict, _Content, Placed, str]] = []
    skipped: list[dict] = []
    records: list[dict] = []
    for entry in entries:
        loc = entry.get("location") or {}
        key = (loc.get("file"), loc.get("line"))
        ordinal = seen.get(key, 0)
        seen[key] = ordinal + 1
        rel = entry.get("path")
        if entry.get("macro") not in (None, "includegraphics") or not rel:
            continue
        ext = os.path.splitext(rel)[1].lower()
        if ext in (".eps", ".ps"):
            skipped.append({"file": rel, "reason": "EPS graphics are not read"})
            continue
        if ext not in RASTER_EXTS and ext != ".pdf":
            continue
        full = os.path.join(src.root, rel)
        try:
            if os.path.getsize(full) == 0:
                continue
        except OSError:
            continue
        opts = entry.get("options") or {}
        page_no = int(L.number(opts.get("page")) or 1) if ext == ".pdf" else 1
        ck = (full, page_no)
        if ck not in cache:
            cache[ck] = _pdf_content(full, page_no) if ext == ".pdf" else _raster_content(full)
        content = cache[ck]
        if content is None or content.width <= 0 or content.height <= 0:
            continue
        where = _graphic_pos(src, fig, entry, ordinal)
        frames = []
        if where is not None:
            t = src.text(where[0]) or ""
            frames = _frames(t, where[1], where[2])
        ctx, post = _context_for(frames, base)
        p = place(content, opts, ctx, post)
        if p is None:
            skipped.append({"file": rel, "reason": "size not computable from the sources"})
            continue
        placed.append((entry, content, p, rel))
        if content.heavy:
            skipped.append({"file": rel, "reason": "vector paths not read (very large page content)"})
        lw = ctx.values.get("linewidth")
        records.append({"file": rel, "width_bp": round(p.width, 2), "height_bp": round(p.height, 2),
                        "scale": round(p.sy, 4), "linewidth_pt": round(lw, 2) if lw else None,
                        "how": p.how, "frames": [f[0] for f in frames]})
    if skipped:
        fig.extra["placement_skipped"] = skipped
    if not placed:
        return
    row_w = (base.values.get("linewidth") or lay.textwidth) / BP
    x = y = row_h = 0.0
    max_w = 0.0
    for entry, content, p, rel in placed:
        if x > 0 and x + p.width > row_w * 1.01:
            x, y = 0.0, y + row_h
            row_h = 0.0
        if content.pixels is not None:
            # where the bitmap's pixels are, for the raster reading (features/quality.placed_images)
            fig.extra.setdefault("raster_files", {})[str(len(fig.images))] = os.path.join(src.root, rel)
        first = len(fig.images)
        _emit(fig, content, p, rel, x, y)
        if content.pixels is None and len(fig.images) > first:
            # bitmaps inside a PDF graphic (a heatmap drawn by imshow, its colour bar): their
            # pixels are in that file, by xref, as in the paper's PDF (features/quality.placed_images)
            fig.extra.setdefault("embedded_files", {}).update(
                {im.name: os.path.join(src.root, rel) for im in fig.images[first:]})
        x += p.width
        row_h = max(row_h, p.height)
        max_w = max(max_w, x)
    fig.bbox = (0.0, 0.0, round(max_w, 2), round(y + row_h, 2))
    fig.extra["content_source"] = "graphics-files"
    fig.extra["placement"] = records
    rasters = [r for _, c, _, r in placed if c.pixels is not None]
    if len(placed) == 1 and rasters:
        # a figure that is one bitmap: feature analysis reads its pixels, as for an image input
        fig.extra["image_path"] = os.path.join(src.root, rasters[0])


def _emit(fig: Figure, c: _Content, p: Placed, rel: str, x: float, y: float) -> None:
    kx, ky = p.sx, p.sy  # own-axis scale (TeX pt per TeX pt == bp per bp)
    ox, oy = p.offset

    def box(b: tuple) -> tuple[float, float, float, float]:
        return (round(x + (b[0] - ox) * kx, 2), round(y + (b[1] - oy) * ky, 2),
                round(x + (b[2] - ox) * kx, 2), round(y + (b[3] - oy) * ky, 2))

    def visible(b: tuple) -> bool:
        cb = p.clip_box
        return cb is None or not (b[2] <= cb[0] or b[0] >= cb[2] or b[3] <= cb[1] or b[1] >= cb[3])

    name = os.path.basename(rel)
    if c.pixels is not None:
        w_px, h_px = c.pixels
        own_w, own_h = (p.height, p.width) if p.rotated else (p.width, p.height)
        # the visible part of the bitmap (trim/viewport) prints at own_w x own_h
        vis_w = w_px * (own_w / kx) / c.width if kx else 0
        vis_h = h_px * (own_h / ky) / c.height if ky else 0
        dpi_x = vis_w / (own_w / 72.0) if own_w > 0 else 0.0
        dpi_y = vis_h / (own_h / 72.0) if own_h > 0 else 0.0
        shown = (round(x, 2), round(y, 2), round(x + p.width, 2), round(y + p.height, 2))
        # a clip (trim or viewport with clip) prints part of the bitmap: its pixels span the
        # whole file's box, placed as that part is (as the PDF route records a clipped image)
        whole = box((0.0, 0.0, c.width, c.height)) if p.clip_box is not None and not p.rotated else None
        fig.images.append(RasterImage(width_px=w_px, height_px=h_px, bbox=shown, dpi_x=dpi_x, dpi_y=dpi_y, name=name,
                                      dpi_source="placement", placed=whole if whole != shown else None))
        return
    for text, size, font, b, color, d in c.spans:
        if visible(b) and size * ky >= 0.5:  # as the PDF route: text under 0.5 pt is not meant to be read
            fig.spans.append(TextSpan(text=text, size=round(size * ky, 2), font=font, bbox=box(b), color=color, dir=d))
    for w_px, h_px, b, whole, xref in c.images:
        if not visible(b):
            continue
        bb, fb = box(b), box(whole)  # the resolution is the whole image's, however much prints
        w_in, h_in = max(fb[2] - fb[0], 1e-6) / 72.0, max(fb[3] - fb[1], 1e-6) / 72.0
        if p.rotated:
            w_in, h_in = h_in, w_in
        fig.images.append(RasterImage(width_px=w_px, height_px=h_px, bbox=bb, dpi_x=w_px / w_in, dpi_y=h_px / h_in,
                                      xref=xref, name=f"{name}:image{len(fig.images) + 1}", dpi_source="placement",
                                      placed=None if b == whole else fb))
    for d in c.drawings:
        if not visible(d.bbox):
            continue
        lines = [[(round(x + (px - ox) * kx, 2), round(y + (py - oy) * ky, 2)) for px, py in run] for run in d.lines]
        # colours as read (paths.clipped_drawings), not rounded: the same chart read standalone
        # or from a paper's PDF names the same colours (#00a9ff, not #00a8ff)
        fig.drawings.append(Drawing(bbox=box(d.bbox), stroke=d.stroke, fill=d.fill,
                                    width=(d.width * ky) if d.width is not None else None, items=d.items,
                                    dash=d.dash, lines=lines, paths=d.paths, shape=d.shape,
                                    unit=d.unit * max(abs(kx), abs(ky)), fill_alpha=d.fill_alpha))


def _color(c) -> tuple[float, ...] | None:
    return tuple(round(float(v), 4) for v in c) if c else None
