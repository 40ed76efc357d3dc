"""LaTeX sources -> Paper: figures, captions, labels, graphics and citing sites.

`read_latex(path)` takes a main .tex file or a paper directory. The sources
are flattened by texsource (includes, comments, disabled blocks, positions),
scanned by texscan (numbering, labels, references, user macros) and figure
floats are parsed by texparse with pylatexenc. This module binds it all:
every reference command becomes a CitingSite of each figure it names
(via="ref"), hard-coded "Figure 3" text becomes a CitingSite with via="text",
each with its paragraph and sentence as plain text and a real file:line:column.
No rule logic here; what rules need to judge (unresolved references,
misplaced labels, missing graphics, hard-coded numbers) is recorded in
`paper.extra` and `figure.extra`.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
from typing import Iterable

from figlint.gcpause import paused
from figlint.mentions import external_mention
from figlint.ingest.langnames import autoref_figure_word, cref_figure_names
from figlint.ingest.texparse import _WALKER_ENVS, TextRenderer, squash
from figlint.ingest.texscan import FigRec, LabelDef, ScanResult, _figure_heads, printed_number, scan_document
from figlint.ingest.texsource import Document, is_inside, load_document, read_args
from figlint.model import Caption, CitingSite, Figure, Paper, Problem, Subpanel

GRAPHIC_EXTS = (".pdf", ".png", ".jpg", ".jpeg", ".eps", ".PDF", ".PNG", ".JPG", ".JPEG", ".EPS", ".mps", ".ps")
KNOWN_EXTS = {e.lower() for e in GRAPHIC_EXTS} | {".svg", ".pgf", ".tikz", ".tex", ".pdf_tex", ".gif", ".tif", ".tiff", ".bmp", ".webp"}

_BOUNDARY = re.compile(
    r"\n[ \t]*\n|\\par(?![A-Za-z@])|\\(?:begin|end)\s*\{[^}]*\}(?:\[[^\]\n]*\])?"
    r"|\\item(?![A-Za-z@])(?:\s*\[[^\]\n]*\])?"
    r"|\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?\s*(?:\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}"
    r"|\\(?:maketitle|centering|noindent)(?![A-Za-z@])"
)
# a forced line break: a line of a paragraph or a box ends there
_LINE_BREAK = re.compile(r"\\\\\*?(?:\s*\[[^\]\n]*\])?|\\(?:newline|linebreak)(?![A-Za-z@])")
_NOT_NL = re.compile(r"[^\n]")
_MARK = re.compile("[\U000F0000-\U000FFFFD]")
_FIG_WORD_BEFORE = re.compile(r"(?i)(?<![A-Za-z])(?:fig(?:ure)?s?\.?)[\s~]*(?:\\,|\\ )?$")
_BEGIN_AT = re.compile(r"\\begin\s*\{([^}]*)\}")
# a switch of the page's columns in the body: the floats after it are set in that many columns
# (REVTeX's \onecolumngrid / \twocolumngrid switch without a page break, the same for floats)
_COLUMN_SWITCH = re.compile(r"\\(one|two)column(?:grid)?(?![A-Za-z@])")
# What joins the two ends of a range of references: a dash ("Figs.~\\ref{a}--\\ref{b}", the end's
# figure word may be repeated: "Fig.~\\ref{a} -- Fig.~\\ref{b}"), or "to"/"through" with no word
# before the end ("Figures~\\ref{a} to~\\ref{b}"; "Figure~\\ref{a} to Figure~\\ref{b}" may compare two)
_SPACE = r"(?:\s|~|\\[,;: ]|\\thinspace\b|\\nobreak\b)*"
_REF_RANGE_GAP = re.compile(
    _SPACE + r"(?:(?:-{1,3}|\u2013|\u2014|\\text(?:en|em)dash\b(?:\{\})?)" + _SPACE
    + r"(?:(?:[Ff]ig(?:ure)?s?\.?|FIG(?:URE)?S?\.?)" + _SPACE + r")?"
    + r"|(?:to|through)" + _SPACE + r")")
_ALT_MACRO = re.compile(r"\\(?:Description|alt)\s*(?:\[[^\]]*\]\s*)?\{\s*[^}\s]")


# The placeholder images the mwe package installs with TeX Live (example-image-a, example-grid-100x100pt, ...):
# found by the TeX installation, not in the paper.
_TEX_DISTRIBUTION_GRAPHIC = re.compile(r"^example-(?:image|grid)(?:-[A-Za-z0-9x.]+)*(?:\.(?:pdf|png|jpg|eps))?$")


def _casefold_match(path: str) -> str | None:
    """The file in `path`'s folder whose name equals its name but for case, if exactly one."""
    folder, name = os.path.split(path)
    try:
        hits = [n for n in os.listdir(folder or ".") if n.lower() == name.lower()]
    except OSError:
        return None
    if len(hits) != 1 or not os.path.isfile(os.path.join(folder, hits[0])):
        return None
    return os.path.join(folder, hits[0])


def read_latex(path: str, *, root: str | None = None, ref_macros: Iterable[str] = ()) -> Paper:
    """Read a LaTeX paper (main file or directory) into a Paper (route "latex").

    `root` bounds the tree sources may come from and is what reported paths
    are relative to (default: the given directory, or the main file's folder).
    `ref_macros` names extra commands that take a label as their first
    argument (as `\\ref` does), for macros defined in packages figlint cannot read.
    """
    with paused():
        doc = load_document(path, root)
        scan = scan_document(doc, tuple(ref_macros))
        return _Assembler(path, doc, scan).paper()


def _sequence(number: str) -> str:
    """What a figure number is counted within: "F." of "F.12", "4-" of "4-16", "" of "12"."""
    return re.sub(r"\d+$", "", number or "")


# A figure's name heading an entry: PLoS's `\paragraph*{S1 Fig.}` over a supporting item, a
# list of figure legends at the end of a manuscript (`\item[Figure 1] \textbf{Title.} ...`)
_HEADING_OPEN = re.compile(r"(?:\\paragraph\*?\s*\{|\\item\s*\[)\s*$")
_HEADING_CLOSE = re.compile(r"[.:]?\s*[}\]]")


class _Assembler:
    def __init__(self, path: str, doc: Document, scan: ScanResult) -> None:
        self.path = path
        self.doc = doc
        self.scan = scan
        self.t = doc.text
        self.final: dict[str, LabelDef] = {}
        self.dups: dict[str, list[LabelDef]] = {}
        for lab in scan.labels:
            if lab.name in self.final:
                self.dups.setdefault(lab.name, [self.final[lab.name]]).append(lab)
            self.final[lab.name] = lab
        self.figures: list[Figure] = []
        self.short_titles: dict[int, str] = {}
        self._autoref_word: tuple[tuple[int, int], str] | None = None
        self.problems: list[Problem] = list(doc.problems) + list(scan.problems)
        from figlint.ingest.auxcite import read_aux

        aux = read_aux(doc.main.path, doc.root)
        self.cites, self.aux_files = aux.cites, aux.files
        self.aux_labels = aux.labels  # label -> what the build printed for it
        self._numbers_as_printed(aux)
        self.renderer = TextRenderer(scan.table, self._render_ref, self.cites)
        self._long_texts: dict[int, str] = {}
        self._typed: dict[int, tuple[str, str]] = {}  # FigRec index -> (label, caption after it)
        self._typed_labels()
        self._bounds = None
        self._breaks: dict[tuple[int, int], tuple[list[int], list[int]]] = {}

    def _numbers_as_printed(self, aux) -> None:
        """Figure numbers and what each `\\ref` prints, as the build recorded them in its .aux.

        The counters read from the sources cannot know everything a class or package does to
        `\\thefigure` (PNAS and PLOS supplements print "S1", a class's appendix "A1", an
        author's `labelformat`), and LaTeX's own record can: a figure whose `\\label` the .aux
        knows takes the number it printed; one without a label takes it from the list-of-
        figures entry with its caption (matched on the caption's letters, not on order: floats
        may be written out of order). Figures the .aux does not know keep their counted number;
        without an .aux (a first run, the sources alone) nothing changes."""
        if not aux.labels and not aux.lof:
            return
        recs = self.scan.figures
        new: dict[int, str] = {}
        for name, lab in self.final.items():
            if lab.kind == "figure" and lab.fig is not None and lab.fig not in new and aux.labels.get(name):
                new[lab.fig] = aux.labels[name]
        by_caption: dict[str, list[str]] = {}
        for num, tex in aux.lof:
            if num:
                by_caption.setdefault(_caption_key(tex), []).append(num)
        for rec in recs:
            if not rec.number or rec.caption is None:
                continue
            node = rec.caption.short_node if rec.caption.short_node is not None else rec.caption.long_node
            key = _caption_key(node.latex_verbatim()) if node is not None else ""
            nums = by_caption.get(key) if key else None
            if nums:
                num = nums.pop(0)
                new.setdefault(rec.index, num)
        if not new:
            return
        for idx, num in new.items():
            # a declared type named "Figure S" prints "Figure S1" over a counter that prints "1";
            # one named "Supplementary Figure" prints "1", its series written before it ("S1")
            series = self.scan.float_series.get((recs[idx].env or "").rstrip("*"), "")
            if recs[idx].series and num[:1].isdigit():
                series = recs[idx].series
            recs[idx].number = num if num.startswith(series) else series + num
        for lab in self.scan.labels:
            if lab.name in aux.labels and aux.labels[lab.name]:
                lab.printed = aux.labels[lab.name]
            elif lab.kind == "figure" and lab.fig in new:
                lab.printed = new[lab.fig]
            elif lab.kind == "subfigure" and lab.fig in new and lab.letter:
                lab.printed = new[lab.fig] + lab.letter

    def _typed_labels(self) -> None:
        """Captions that print their own label under `\\captionsetup{labelformat=empty}`:
        "Figure S2.1: Evolution of ..." typed into the caption text (R Markdown supplements).
        The reader sees that label and no other, so it is the figure's number; `\\ref` still
        prints the counter, as LaTeX does. Only where the last `labelformat` set before the
        caption is empty."""
        from figlint.mentions import find_mentions, parse_caption_label

        t = self.t
        for rec in self.scan.figures:
            cap = rec.caption
            if not rec.number or cap is None or cap.long_node is None:
                continue
            if cap.macro == "paragraph":
                # a float headed by its label alone (PLoS's "\\paragraph*{S1 Fig.}", texparse): the
                # heading prints the label, the text after it the caption
                self._typed[rec.index] = (f"{rec.number} Fig", self.renderer.node_text(cap.long_node))
                continue
            if cap.macro == "legend":
                continue  # a legend listed apart under the figure's heading (texscan.legends_apart)
            if cap.macro == "typed":
                # a graphic set without a float, its caption's label typed (texscan.typed_figure)
                found = parse_caption_label(self.renderer.node_text(cap.long_node))
                if found:
                    self._typed[rec.index] = (found[0], found[2])
                continue
            k = t.rfind("labelformat", 0, cap.pos)
            if k < 0 or not re.match(r"labelformat\s*=\s*empty\b", t[k:k + 40]):
                continue
            text = self.renderer.node_text(cap.long_node)
            self._long_texts[rec.index] = text
            found = parse_caption_label(text)
            if found and found[1]:
                label, number, rest = found
            else:
                # "Figure S2.3 (T = 10): The ..." : the label need not end in punctuation here
                ms = find_mentions(text)
                if not ms or ms[0].start != len(text) - len(text.lstrip()) or len(ms[0].numbers) != 1:
                    continue
                label, number, rest = ms[0].text, ms[0].numbers[0], text[ms[0].end:].lstrip(" :.")
            rec.number = number
            self._typed[rec.index] = (label, rest)

    # ------------------------------------------------------------ refs as text
    def _names(self, kind: str, macro: str, plural: bool) -> str:
        scan = self.scan
        capital = macro[0].isupper() or "capitalise" in scan.cleveref_options or "capitalize" in scan.cleveref_options
        key = ("Crefname:" if macro[0].isupper() else "crefname:") + ("figure" if kind in ("figure", "subfigure") else kind)
        if key in scan.crefnames:
            sing, plur = scan.crefnames[key]
            return squash(self.renderer.latex_to_text(plur if plural else sing))
        noabbrev = "noabbrev" in scan.cleveref_options
        if macro[0].isupper():  # \Cref: cleveref's \Crefname, never abbreviated ("Figure 2")
            noabbrev = True
        if kind in ("figure", "subfigure"):
            names = cref_figure_names(scan, capital, not noabbrev)  # cleveref's language option
            if names is not None:
                return names[1] if plural else names[0]
        base = {
            "figure": ("fig.", "figs.") if not noabbrev else ("figure", "figures"),
            "section": ("section", "sections"),
            "table": ("table", "tables"),
            "equation": ("eq.", "eqs.") if not noabbrev else ("equation", "equations"),
        }.get("figure" if kind in ("figure", "subfigure") else kind, ("", ""))
        word = base[1] if plural else base[0]
        return word[:1].upper() + word[1:] if capital else word

    def _autoref_figure_word(self) -> str:
        """\figureautorefname where the paragraph being rendered starts (langnames)."""
        key = (self.renderer.pos_hint, self.scan.table.version)
        if self._autoref_word is None or self._autoref_word[0] != key:
            word = autoref_figure_word(self.scan, self.t, self.doc.body_start, self.renderer.pos_hint,
                                       lambda s: squash(self.renderer.latex_to_text(s, nested=True)))
            self._autoref_word = (key, word)
        return self._autoref_word[1]

    def _render_ref(self, macro: str, labels: list[str], args: list, obj) -> str:
        infos = [self.final.get(lab) for lab in labels]
        nums = [(i.printed if i is not None and i.printed else "??") for i in infos]
        kind = next((i.kind for i in infos if i is not None), "other")
        if kind == "misplaced":
            kind = "section"
        if macro == "hyperref":
            return obj._groupnodecontents_to_text(args[1]) if len(args) > 1 and args[1] is not None else ""
        if not labels:
            return "??"
        if macro in ("pageref", "cpageref", "Cpageref", "vpageref", "cpagerefrange", "Cpagerefrange", "labelcpageref"):
            return "?"
        if macro == "eqref":
            return "(" + nums[0] + ")"
        if macro == "subref":
            return ", ".join("(" + (i.letter if i is not None and i.letter else "?") + ")" for i in infos)
        if macro in ("nameref", "Nameref"):
            i = infos[0]
            if i is not None and i.fig is not None and i.kind in ("figure", "subfigure"):
                return self.short_titles.get(i.fig, "??")
            return "??"
        if macro in ("autoref", "Autoref"):
            name = {"figure": "Figure", "subfigure": "Figure", "section": "Section", "table": "Table",
                    "equation": "Equation"}.get(kind, "")
            if kind in ("figure", "subfigure"):
                name = self._autoref_figure_word()
            return (name + " " if name else "") + " and ".join(nums)
        if macro in ("figref", "Figref", "fref", "Fref"):
            return ("Figure " if macro[0].isupper() else "figure ") + " and ".join(nums)
        if macro in ("cref", "Cref", "crefrange", "Crefrange", "cref*", "Cref*"):
            word = self._names(kind, macro, len(nums) > 1)
            if macro.lower() == "crefrange":
                body = nums[0] + " to " + nums[-1]
            elif len(nums) == 1:
                body = nums[0]
            elif len(nums) == 2:
                body = nums[0] + " and " + nums[1]
            else:
                body = ", ".join(nums[:-1]) + ", and " + nums[-1]
            return (word + " " if word else "") + body
        if macro in ("vref", "Vref"):
            return nums[0]
        return ", ".join(nums)

    # ------------------------------------------------------------ figures
    def _resolve_graphic(self, written: str, rec: FigRec, macro: str) -> tuple[str | None, bool]:
        """(path relative to the root or None, outside the tree?)."""
        name = written.strip().strip('"')
        if not name:
            return None, False
        base = rec.graphics_base or self.doc.base_dir
        dirs = [base] + [os.path.join(base, g) for g in rec.graphicspath]
        if base != self.doc.base_dir:
            # LaTeX resolves names against the folder it runs in (the main file's) too: a file
            # read with \import{sections/}{...} may name figures/x.pdf from the top
            dirs += [self.doc.base_dir] + [os.path.join(self.doc.base_dir, g) for g in rec.graphicspath]
        dirs += self.doc.search_dirs  # graphicx searches TEXINPUTS too (searchpath.texinputs_dirs)
        ext = os.path.splitext(name)[1].lower()
        if macro == "input":
            tries = [name] if ext in KNOWN_EXTS else [name + e for e in (".tex", ".pgf", ".tikz")] + [name]
        elif macro == "includesvg":
            tries = [name] if ext == ".svg" else [name + ".svg", name]
        elif macro == "includestandalone":
            tries = [name + ".tex", name + ".pdf", name]
        elif os.path.splitext(name)[1] == ".eps":
            # pdfTeX prints an EPS through epstopdf's conversion, <name>-eps-converted-to.pdf,
            # found beside it; a repository may keep only that (LaTeX warns the .eps is missing
            # and prints the conversion)
            tries = [name, name[:-4] + "-eps-converted-to.pdf"]
        elif ext in KNOWN_EXTS:
            tries = [name]
        else:
            tries = [name + e for e in GRAPHIC_EXTS] + [name]
        outside = False
        for d in dirs:
            for nm in tries:
                cand = os.path.normpath(os.path.join(d, nm))
                if not is_inside(cand, self.doc.root):
                    outside = True
                    continue
                if not os.path.isfile(cand):
                    # TeX Live's search folds case when the exact name is not there
                    # (texmf_casefold_search), as Windows and macOS file systems do
                    cand = _casefold_match(cand)
                    if cand is None:
                        continue
                if not is_inside(os.path.realpath(cand), os.path.realpath(self.doc.root)):
                    outside = True
                    continue
                return os.path.relpath(cand, self.doc.root).replace(os.sep, "/"), False
        return None, outside

    def build_figures(self) -> None:
        switches = self._column_switches()
        for rec in self.scan.figures:
            cap = rec.caption
            fig = Figure(number=rec.number, env=rec.env, in_appendix=rec.in_appendix)
            k = bisect.bisect_right(switches, (rec.begin_pos, 3)) - 1
            if k >= 0:
                # \onecolumn in a two-column paper (a supplement, an appendix set full width): the
                # floats after it are set at the text width, \twocolumn after it in columns again
                fig.extra["columns_set"] = switches[k][1]
            if rec.in_appendix:
                fig.extra["appendix_section"] = self.appendix_of(rec.begin_pos)
            fig.location = self.doc.locate(rec.begin_pos)
            if cap is not None:
                long_text = self._long_texts.get(rec.index)
                if long_text is None:
                    long_text = self.renderer.node_text(cap.long_node)
                # a declared type's "Fig", else the name set where the figure is (texscan.figure_name)
                own = self.scan.float_names.get(rec.env.rstrip("*")) or rec.name
                own = squash(self.renderer.latex_to_text(own)) if own else ""
                label = f"{own or 'Figure'} {printed_number(rec)}" if rec.number else ""
                if rec.index in self._typed:
                    label, long_text = self._typed[rec.index]
                short_text = self.renderer.node_text(cap.short_node) if cap.short_node is not None else None
                self.short_titles[rec.index] = short_text if short_text else long_text
                fig.caption = Caption(text=long_text, label=label,
                                      location=self.doc.locate(cap.pos), short=short_text)
                fig.extra["caption_tex"] = cap.long_node.latex_verbatim()[1:-1] if cap.long_node is not None else ""
                if cap.macro in ("typed", "legend"):
                    # set without a float, or a float numbered by its heading (texscan.legends_apart):
                    # no counter a \label could name
                    fig.extra["hand_numbered"] = True
            if not rec.number:
                fig.extra["uncaptioned"] = True  # no numbered caption (none, or \caption*)
            if rec.continues is not None:
                fig.extra["continuation"] = True  # \ContinuedFloat: a further part of the figure before it
            options = []
            missing = []
            for g in rec.graphics:
                path, outside = (None, False)
                if g.macro == "input":
                    path, outside = self._resolve_graphic(g.path, rec, "input")
                else:
                    path, outside = self._resolve_graphic(g.path, rec, g.macro)
                if outside:
                    self.problems.append(Problem(
                        code="FL003", message=f"graphics file {' '.join(g.path.split())} is outside the paper's directory; not read",
                        location=self.doc.locate(g.pos), figure=rec.number))
                    continue
                if path is None and not outside and not _TEX_DISTRIBUTION_GRAPHIC.match(g.path.strip()):
                    missing.append(g.path)
                fig.graphics.append(path or g.path)
                options.append({"file": g.path, "path": path, "macro": g.macro,
                                "options": dict(g.options), "raw": g.options_raw,
                                "location": {"file": self.doc.locate(g.pos).file, "line": self.doc.locate(g.pos).line}})
            fig.extra["graphics_options"] = options
            if missing:
                fig.extra["missing_graphics"] = missing
            fig.extra["vector_only"] = bool(rec.tikz and not rec.graphics)
            if rec.tikz:
                fig.extra["tikz"] = True
            # a label defined again later is the later one for LaTeX (the last \newlabel wins):
            # one set before the caption and again after it prints the figure's number
            fig.extra["misplaced_labels"] = [lab for lab in rec.misplaced
                                             if getattr(self.final.get(lab), "kind", "misplaced") == "misplaced"]
            self._span_and_alt(fig, rec)
            fig.extra["subfigures"] = len(rec.subs)
            if rec.float_info is not None and len(rec.float_info.mains) > 1:
                fig.extra["float_captions"] = len(rec.float_info.mains)
                fig.extra["float_index"] = rec.float_index
            for sub in rec.subs:
                fig.subpanels.append(Subpanel(label=sub.letter, caption=self.renderer.node_text(sub.long_node)))
            self.figures.append(fig)
        # where each misplaced \label is, and what \ref prints for it (label-before-caption)
        for lab in self.scan.labels:
            if lab.kind == "misplaced" and lab.fig is not None:
                loc = self.doc.locate(lab.pos)
                self.figures[lab.fig].extra.setdefault("misplaced_label_sites", []).append(
                    {"label": lab.name, "file": loc.file, "line": loc.line, "column": loc.column,
                     "prints": lab.printed})
        # labels: the last definition wins, as in LaTeX
        for name, lab in self.final.items():
            if lab.kind in ("figure", "subfigure") and lab.fig is not None:
                self.figures[lab.fig].labels.append(name)
        for name, defs in self.dups.items():
            for lab in defs[:-1]:
                if lab.kind in ("figure", "subfigure") and lab.fig is not None and lab is not self.final[name]:
                    self.figures[lab.fig].extra.setdefault("overridden_labels", []).append(name)

    def _env_end(self, pos: int) -> int:
        """End of the environment that begins at `pos` (after its \\end{...}); `pos` if none does."""
        m = _BEGIN_AT.match(self.t, pos)
        if m is None:
            return pos
        pat = re.compile(r"\\(begin|end)\s*\{" + re.escape(m.group(1)) + r"\}")
        depth = 0
        for e in pat.finditer(self.t, pos):
            depth += 1 if e.group(1) == "begin" else -1
            if depth == 0:
                return e.end()
        return pos

    def _span_and_alt(self, fig: Figure, rec: FigRec) -> None:
        """Record where the figure's environment ends and whether it carries alternative text.

        `end_file`/`end_line` locate the `\\end{figure}` (inline suppression needs the
        environment's line span); `alt_text` is True when the float body has a non-empty
        `\\Description` (acmart) or `\\alt{}` (tagging), or every graphic has an `alt=` key.
        """
        if rec.float_info is not None:
            start, end = rec.float_info.start, rec.float_info.end
        else:  # \captionof: the environment around it (a minipage, a strip), else the caption
            start = rec.begin_pos
            end = self._env_end(start)
            if end <= start and rec.caption is not None and rec.caption.long_range:
                end = rec.caption.long_range[1] + 1
        last = self.doc.locate(max(start, end - 1))
        fig.extra["end_file"] = last.file
        fig.extra["end_line"] = last.line
        described = bool(_ALT_MACRO.search(self.t, start, max(start, end)))
        graphics = [g for g in rec.graphics if g.macro != "input"] or list(rec.graphics)
        keyed = bool(graphics) and all(str(g.options.get("alt", "")).strip(" {}") for g in graphics)
        fig.extra["alt_text"] = described or keyed

    # ------------------------------------------------------------ paragraphs
    def _boundaries(self) -> tuple[list[int], list[int]]:
        if self._bounds is None:
            starts: list[int] = []
            ends: list[int] = []
            skipped = self.scan.skipped
            k = 0
            for m in _BOUNDARY.finditer(self.t, self.doc.body_start):
                # a blank line or \begin inside a discarded argument is not a boundary
                while k < len(skipped) and skipped[k][1] <= m.start():
                    k += 1
                if k < len(skipped) and skipped[k][0] <= m.start():
                    continue
                starts.append(m.start())
                ends.append(self._args_end(m))
            self._bounds = (starts, ends)
        return self._bounds

    def _args_end(self, m: re.Match) -> int:
        """Where a boundary ends: past the arguments of the environment it begins, which print
        nothing of their own ("\\begin{minipage}[t]{3in}", "\\begin{tabular}{lcr}": the width
        and the column types were read as the paragraph's first words)."""
        b = _BEGIN_AT.match(self.t, m.start())
        spec = _WALKER_ENVS.get(b.group(1).strip()) if b is not None else None
        if not spec:
            return m.end()
        return max(m.end(), read_args(self.t, b.end(), spec)[1])

    def paragraph_bounds(self, pos: int) -> tuple[int, int]:
        for a, b, _ in self.scan.caption_ranges:
            if a <= pos < b:
                return a, b
        starts, ends = self._boundaries()
        k = bisect.bisect_right(starts, pos) - 1
        if k >= 0 and ends[k] > pos:  # inside a heading or an item label
            return starts[k], ends[k]
        a = ends[k] if k >= 0 else self.doc.body_start
        nxt = k + 1
        b = starts[nxt] if nxt < len(starts) else len(self.t)
        # a caption inside this stretch is its own paragraph
        for ca, cb, _ in self.scan.caption_ranges:
            if a <= ca and cb <= b:
                if cb <= pos:
                    a = max(a, cb + 1)
                elif ca > pos:
                    b = min(b, ca)
        return a, b

    def render_with_marks(self, a: int, b: int, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int] | None]]:
        """Plain text of t[a:b] and where each span (absolute positions) landed in it."""
        t = self.t
        inserts: list[tuple[int, int, str]] = []
        for k, (s, e) in enumerate(spans):
            inserts.append((max(a, min(s, b)), 1, chr(0xF0000 + 2 * k)))
            inserts.append((max(a, min(e, b)), 0, chr(0xF0001 + 2 * k)))
        inserts.sort()
        parts: list[str] = []
        cur = a
        for p, _, ch in inserts:
            parts.append(t[cur:p])
            parts.append(ch)
            cur = p
        parts.append(t[cur:b])
        self.renderer.pos_hint = a
        text = squash(self.renderer.latex_to_text("".join(parts), raw=True))
        where: dict[int, int] = {}
        for n, m in enumerate(_MARK.finditer(text)):
            where[ord(m.group(0)) - 0xF0000] = m.start() - n
        plain = _MARK.sub("", text)
        out: list[tuple[int, int] | None] = []
        for k in range(len(spans)):
            s, e = where.get(2 * k), where.get(2 * k + 1)
            out.append((s, e) if s is not None and e is not None and e >= s else None)
        return plain, out

    # ------------------------------------------------------------ sites
    def _mention_for(self, mentions: list, span: tuple[int, int] | None):
        if span is None:
            return None
        s, e = span
        for m in mentions:
            if m.start <= s < m.end or (s <= m.start < max(e, s + 1)):
                return m
        return None

    def build_sites(self) -> None:
        doc, t = self.doc, self.t
        events: list[dict] = []
        unresolved: list[dict] = []
        misplaced_refs: list[dict] = []
        for ev in self.scan.refs:
            by_fig: dict[int, list[str]] = {}
            for lab in ev.labels:
                info = self.final.get(lab)
                loc = doc.locate(ev.pos)
                if info is None and self.aux_labels.get(lab) not in (None, "", "??"):
                    # defined where figlint did not read (a file it could not reach, a
                    # class's own label), yet LaTeX's record prints a number for it
                    continue
                if info is None:
                    before = t[max(0, ev.pos - 12):ev.pos]
                    unresolved.append({
                        "label": lab, "file": loc.file, "line": loc.line, "column": loc.column,
                        "macro": ev.macro, "reason": "undefined",
                        "figure_like": bool(not lab or lab.lower().startswith(("fig", "sfig", "subfig"))
                                            or ev.macro in ("figref", "Figref", "subref")
                                            or _FIG_WORD_BEFORE.search(before)),
                    })
                elif info.kind in ("figure", "subfigure") and info.fig is not None:
                    by_fig.setdefault(info.fig, []).append(lab)
                elif info.kind == "misplaced":
                    misplaced_refs.append({
                        "label": lab, "file": loc.file, "line": loc.line, "column": loc.column,
                        "macro": ev.macro, "figure": self.figures[info.fig].number if info.fig is not None else None,
                        "prints": info.printed or "??",
                    })
            for fig, labs in by_fig.items():
                events.append({"pos": ev.pos, "end": ev.end, "fig": fig, "labels": labs, "macro": ev.macro, "via": "ref"})
        events.extend(self._range_events())
        self.unresolved = unresolved
        self.misplaced_refs = misplaced_refs
        self.hardcoded: list[dict] = []
        for lit in self.literal_mentions():
            events.append(lit)
        self._attach([ev for ev in events if not self._in_own_caption(ev["pos"], ev["fig"])
                      and not (ev["via"] == "ref" and self._alone_on_line(ev["pos"], ev["end"]))])

    def _typed_label_at(self, pos: int) -> bool:
        """pos opens the text of a caption whose typed label is its number (_typed_labels)."""
        for a, b, k in self.scan.caption_ranges:
            if k in self._typed and a <= pos < b and not self.t[a:pos].strip(" \t\n{"):
                return True
        return False

    def _line_breaks(self, a: int, b: int) -> tuple[list[int], list[int]]:
        """Starts and ends of _LINE_BREAK's matches in t[a:b] (finditer from a, the string cut
        at b), found once per stretch: _alone_on_line asks about every mention in it, and a
        scan of the stretch per mention was quadratic (a megabyte line of "Fig. 1, " took 98 s)."""
        got = self._breaks.get((a, b))
        if got is None:
            found = list(_LINE_BREAK.finditer(self.t, a, b))
            got = self._breaks[(a, b)] = ([m.start() for m in found], [m.end() for m in found])
        return got

    def _last_break_end(self, a: int, pos: int, b: int) -> int:
        """`max((m.end() for m in _LINE_BREAK.finditer(t, a, pos)), default=a)`.
        The scan cut at pos finds the stretch's matches that end by pos, as they are (no match
        of the pattern looks past its own end but the lookahead after \\newline): it differs
        only from a match that runs past pos (it may end sooner there, or fail) or a
        \\newline ending at pos (its lookahead then sees the cut). Both start within 20
        characters of pos or at the first match running past it, so that tail is scanned again."""
        if not a <= pos <= b:
            return max((m.end() for m in _LINE_BREAK.finditer(self.t, a, pos)), default=a)
        starts, ends = self._line_breaks(a, b)
        j = bisect.bisect_right(ends, pos)  # matches 0..j-1 end by pos
        last = ends[j - 1] if j else a
        q = max(last, pos - 20)
        if j < len(starts) and starts[j] < q:
            q = starts[j]
        return max((m.end() for m in _LINE_BREAK.finditer(self.t, q, pos)), default=last)

    def _next_break_start(self, a: int, end: int, b: int) -> int | None:
        """`_LINE_BREAK.search(t, end, b).start()`, or None when there is none. Whether
        the pattern matches at a position does not depend on where a scan began, and the scan
        from a tried every position outside its matches: the first match at or after `end` is
        the answer unless a match begins before `end` and runs past it (positions inside it were
        never tried), when the search is run as it was."""
        starts, ends = self._line_breaks(a, b)
        j = bisect.bisect_left(starts, end)
        if end < a or j and ends[j - 1] > end:
            m = _LINE_BREAK.search(self.t, end, b)
            return m.start() if m else None
        return starts[j] if j < len(starts) else None

    def _alone_on_line(self, pos: int, end: int) -> bool:
        """A figure's name set on a line of its own, in no sentence: what is printed between the
        line breaks (forced, or a paragraph's or a box's ends) around it is a figure's label and
        nothing else, as the label a journal asks for under (or over) a figure set on a page of
        its own ("Figure 1", then the authors' names and the journal's on lines of their own). It
        names the figure and cites it no more than a heading does; the PDF route reads such a
        line alike (pdf._build). Headings and items are read as before, and so is a label set as
        a heading over what follows (bold, ending its paragraph: texscan.legends_apart decides);
        a table's row (cells) is not a line of text, and a list's item prints its mark first."""
        from figlint.mentions import parse_caption_label

        t = self.t
        starts, ends = self._boundaries()
        k = bisect.bisect_right(starts, pos) - 1
        if k >= 0 and ends[k] > pos or any(a <= pos < b for a, b, _ in self.scan.caption_ranges):
            return False
        a, b = self.paragraph_bounds(pos)
        la = self._last_break_end(a, pos, b)
        nxt = self._next_break_start(a, end, b)
        lb = nxt if nxt is not None else b
        if lb - la > 300 or "&" in t[la:lb] or la == a and k >= 0 and ends[k] == a and t.startswith("\\item", starts[k]):
            return False  # a table's row, a list's item (its mark prints before the name)
        try:
            self.renderer.pos_hint = la  # the macros as defined there
            text = squash(self.renderer.latex_to_text(t[la:lb]))
        except Exception:
            return False
        found = parse_caption_label(text)
        if found is None or not found[1] or found[2].strip():
            return False
        if nxt is None and any(h[0] <= pos < h[1] for h in _figure_heads(t, la, lb)):
            return False
        return True

    def _in_own_caption(self, pos: int, fig: int) -> bool:
        """A figure naming itself in its own caption or sub-caption ("(a) as in Figure 3b")
        does not cite it; the PDF route skips such mentions alike."""
        for a, b, k in self.scan.caption_ranges:
            if k == fig and a <= pos < b:
                return True
        rec = self.scan.figures[fig] if 0 <= fig < len(self.scan.figures) else None
        return rec is not None and any(sub.long_range and sub.long_range[0] <= pos < sub.long_range[1]
                                       for sub in rec.subs)

    def _column_switches(self) -> list[tuple[int, int]]:
        """(position, columns) of each \\onecolumn and \\twocolumn (or REVTeX's \\onecolumngrid and
        \\twocolumngrid) in the body, in order (comments,
        definitions and verbatim masked: a macro's body switches only where it is used)."""
        return [(m.start(), 1 if m.group(1) == "one" else 2)
                for m in _COLUMN_SWITCH.finditer(self._masked_text(), self.doc.body_start)]

    def _masked_text(self) -> str:
        """The sources with comments, verbatim and other unprinted parts masked (positions kept),
        line breaks and ties as spaces: the text mentions are read in."""
        if self._masked is not None:
            return self._masked
        t = self.t
        parts: list[str] = []
        cur = 0
        for a, b in self.scan.masks:  # sorted
            a, b = max(a, cur), min(b, len(t))
            if b <= a:
                continue
            parts.append(t[cur:a])
            parts.append(_NOT_NL.sub("#", t[a:b]))
            cur = b
        parts.append(t[cur:])
        masked = "".join(parts)
        masked = re.sub(r"\\[ ,;:!]", "  ", masked)
        self._masked = masked.replace("\n", " ").replace("~", " ")
        return self._masked

    _masked: str | None = None

    def appendix_cited(self) -> bool:
        """The text before the appendices points its reader to them: it names an appendix (the
        word, typed or what a \\cref to an appendix section prints), or refers to a section
        label the appendices define. As the PDF route tells from the printed text."""
        from figlint.mentions import APPENDIX_WORD

        app = self.scan.appendix_pos
        if app is None:
            return False
        if APPENDIX_WORD.search(self._masked_text(), self.doc.body_start, app):
            return True
        return any(True for _ in self._appendix_labels_cited(app))

    def _appendix_labels_cited(self, app: int):
        """The labels of the appendices' sections that references before them name."""
        for ev in self.scan.refs:
            if ev.pos >= app:
                continue
            for name in ev.labels:
                lab = self.final.get(name)
                if lab is not None and lab.pos >= app and lab.kind in ("section", "other"):
                    yield lab

    def appendix_named(self) -> list[str]:
        """The appendices the text before them names by letter: typed ("Appendix C",
        "Appendices B and C") or through a reference to an appendix section's label (what
        "Appendix~\\ref{sec:x}" or "\\cref{sec:x}" prints). As the PDF route reads them."""
        from figlint.ingest.appendix import appendix_letter, named_appendices

        app = self.scan.appendix_pos
        if app is None:
            return []
        letters, _generic = named_appendices(self._masked_text()[self.doc.body_start:app])
        letters |= {appendix_letter(lab.printed) for lab in self._appendix_labels_cited(app)}
        return sorted(letters - {""})

    def appendix_of(self, pos: int) -> str:
        """The letter of the appendix a place in the sources is in ("" before the first one)."""
        letter = ""
        for at, number in self.scan.appendix_heads:
            if at > pos:
                break
            letter = number
        from figlint.ingest.appendix import appendix_letter

        return appendix_letter(letter)

    def literal_mentions(self) -> list[dict]:
        try:
            from figlint.mentions import find_mentions
        except ImportError:  # pragma: no cover - mentions.py is part of the package
            return []
        masked = self._masked_text()
        body = self.doc.body_start
        from figlint.mentions import normalize_number

        # a number printed twice (a \ContinuedFloat part) names the figure's first part
        numbers: dict[str, int] = {}
        norm: dict[str, int] = {}
        for k, f in enumerate(self.figures):
            if f.number:
                numbers.setdefault(f.number, k)
                norm.setdefault(normalize_number(f.number), k)
        out: list[dict] = []
        known = set(norm)
        for m in find_mentions(masked, known):
            if m.start < body:
                continue
            if self._typed_label_at(m.start):
                continue  # "Figure S2.1:" typed as a caption's own label (labelformat=empty)
            if any(a <= m.start < b for a, b in self.scan.figure_heads):
                continue  # a heading naming the figure set under it or the legend listed under it
            if self._alone_on_line(m.start, m.end):
                continue  # a label naming a figure on a line of its own: no sentence cites it
            if self._external(m.start, m.end, m.numbers, known):
                continue
            loc = self.doc.locate(m.start)
            text = squash(m.text.replace("~", " "))
            figs = []
            for num in m.numbers:
                k = numbers.get(num)
                if k is None:
                    k = norm.get(normalize_number(num))
                if k is not None and k not in figs:
                    figs.append(k)
            # "\\paragraph*{S1 Fig.}": the heading PLoS lists a supporting item under, its name as the
            # journal prints it, typed by design, and "\\item[Figure 1]" heading a figure's legend in
            # a list of legends: a site (as the PDF route reads the entry) but no number to replace
            # by a \\ref
            heading = bool(_HEADING_OPEN.search(self.t, max(0, m.start - 20), m.start) and _HEADING_CLOSE.match(self.t, m.end))
            if not heading:
                self.hardcoded.append({
                    "file": loc.file, "line": loc.line, "column": loc.column, "text": text,
                    "numbers": list(m.numbers), "figures": [self.figures[k].number for k in figs],
                    "panels": {k: list(v) for k, v in m.panels.items()},
                })
            for k in figs:
                panels = list(m.panels.get(self.figures[k].number, []))
                out.append({"pos": m.start, "end": m.end, "fig": k, "labels": [], "macro": None,
                            "via": "text", "text": text, "panels": panels,
                            # one Location per site: merge sets each site's page on it
                            "loc": loc if k == figs[0] else dataclasses.replace(loc)})
        return out

    def _external(self, start: int, end: int, numbers=(), known=None) -> bool:
        """A mention of another work's figure ("their Figure 5", "Figure 4 in \\cite{x}")."""
        return external_mention(self.t, start, end, numbers, known)

    def _range_events(self) -> list[dict]:
        """The figures a range of two references cites between its ends: "Figs.~\\ref{a}--\\ref{b}"
        printed "Figs. 12-15" cites 13 and 14 as a reader counts. Each end must name one figure
        (or its panels), both numbered in one sequence ("F.3" to "F.50", not "9" to "A.2"),
        the end after the start; the figures between them in that sequence are cited by the
        whole range's text."""
        refs = self.scan.refs
        out: list[dict] = []

        def one_figure(ev) -> int | None:
            figs = {info.fig for info in (self.final.get(lab) for lab in ev.labels)
                    if info is not None and info.kind in ("figure", "subfigure") and info.fig is not None}
            return figs.pop() if len(figs) == 1 else None

        for a, b in zip(refs, refs[1:]):
            if b.pos - a.end > 60 or not _REF_RANGE_GAP.fullmatch(self.t, a.end, b.pos):
                continue
            fa, fb = one_figure(a), one_figure(b)
            if fa is None or fb is None or fb <= fa + 1:
                continue
            na, nb = self.figures[fa].number, self.figures[fb].number
            seq = _sequence(na)
            if not na or not nb or seq != _sequence(nb):
                continue
            for k in range(fa + 1, fb):
                if self.figures[k].number and _sequence(self.figures[k].number) == seq:
                    out.append({"pos": a.pos, "end": b.end, "fig": k, "labels": [], "macro": a.macro, "via": "ref"})
        return out

    def _attach(self, events: list[dict]) -> None:
        doc = self.doc
        # group by paragraph so each paragraph is rendered once
        groups: dict[tuple[int, int], list[dict]] = {}
        for ev in events:
            groups.setdefault(self.paragraph_bounds(ev["pos"]), []).append(ev)
        for (a, b), evs in groups.items():
            spans: list[tuple[int, int]] = []
            index: dict[tuple[int, int], int] = {}
            for ev in evs:
                key = (ev["pos"], ev["end"])
                if key not in index:
                    index[key] = len(spans)
                    spans.append(key)
                ev["_k"] = index[key]
            try:
                plain, where = self.render_with_marks(a, b, spans)
            except Exception:  # plain text is best effort; the site itself must not be lost
                plain, where = squash(self.t[a:b]), [None] * len(spans)
            from figlint.mentions import find_mentions, normalize_number, sentence_spans

            sentences = sentence_spans(plain) if plain else []
            sent_starts = [sa for sa, _ in sentences]
            known = {normalize_number(f.number) for f in self.figures if f.number}
            mentions = find_mentions(plain, known) if plain else []
            for ev in evs:
                fig = self.figures[ev["fig"]]
                span = where[ev["_k"]]
                sentence = plain.strip()
                if span is not None and sentences:
                    j = max(0, bisect.bisect_right(sent_starts, span[0]) - 1)
                    sentence = plain[sentences[j][0]:sentences[j][1]].strip()
                panels: list[str] = []
                if ev["via"] == "ref":
                    m = self._mention_for(mentions, span)
                    if m is not None:
                        mention = squash(m.text)
                        panels = list(m.panels.get(fig.number, []))
                    elif span is not None and span[1] > span[0]:
                        mention = plain[span[0]:span[1]].strip()
                    else:
                        mention = fig.number
                    for lab in ev["labels"]:
                        info = self.final.get(lab)
                        if info is not None and info.letter and info.letter not in panels:
                            panels.append(info.letter)
                else:
                    mention = ev["text"]
                    panels = ev["panels"]
                loc = ev.get("loc") or doc.locate(ev["pos"])
                site = CitingSite(paragraph=plain, sentence=sentence, mention=mention, location=loc,
                                  via=ev["via"], macro=ev["macro"], panels=panels,
                                  order=float(ev["pos"]), labels=list(ev["labels"]))
                fig.sites.append((ev["pos"], site))
        for fig in self.figures:
            fig.sites.sort(key=lambda ps: ps[0])
            fig.sites = [s for _, s in fig.sites]

    # ------------------------------------------------------------ paper
    def paper(self) -> Paper:
        from figlint.ingest.appendix import settle_appendix

        self.build_figures()
        settle_appendix(self.figures)
        self.build_sites()
        doc, scan = self.doc, self.scan
        paper = Paper(path=self.path, route="latex", root=doc.root, figures=self.figures, problems=self.problems)
        labels: dict[str, str] = {}
        label_refs: dict[str, str] = {}
        for name, lab in self.final.items():
            if lab.kind in ("figure", "subfigure") and lab.fig is not None:
                labels[name] = self.figures[lab.fig].number
                label_refs[name] = lab.printed
        dups = {}
        for name, defs in self.dups.items():
            dups[name] = [{"file": doc.locate(d.pos).file, "line": doc.locate(d.pos).line} for d in defs]
        paper.extra.update({
            "main_tex": doc.main.rel,
            "sources": doc.sources,
            # the .aux files whose citation labels the text was rendered with (the results cache watches them)
            "aux_files": [os.path.relpath(a, doc.root).replace(os.sep, "/") for a in self.aux_files],
            "labels": labels,
            "label_refs": label_refs,
            "hardcoded": self.hardcoded,
            "unresolved_refs": self.unresolved,
            "misplaced_label_refs": self.misplaced_refs,
            "duplicate_labels": dups,
            "documentclass": scan.docclass,
            "appendix_cited": self.appendix_cited(),
            "appendix_named": self.appendix_named(),
            "packages_read": scan.packages_read,
            "encodings": {f.rel: f.encoding for f in doc.files if f.encoding != "utf-8"},
        })
        return paper


def _caption_key(tex: str) -> str:
    """A caption's TeX reduced to its first 80 letters and digits, commands left out: the same
    for the source's `\\caption{...}` and the build's list-of-figures entry of it, whatever
    braces, spacing and `\\protect`s each has."""
    plain = re.sub(r"\\[A-Za-z@]+", "", tex)
    return "".join(ch for ch in plain.lower() if ch.isalnum())[:80]

