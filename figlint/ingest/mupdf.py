"""MuPDF's own messages, kept out of figlint's output.

MuPDF prints warnings and errors about damaged content ("could not parse color
space", "unknown colorspace") to standard output, where they would be mixed into
JSON or SARIF. Importing this module switches that printing off for the whole
process; MuPDF keeps the messages in a buffer, and `drain()` hands them over (and
empties it), so the PDF route can report them as an FL010 finding instead. Font
messages ("FT_Get_Advance ... invalid glyph index"), which ordinary pdfTeX output
raises, and notes about the file's bookkeeping that lose nothing (`_BENIGN`) are left out.
"""

from __future__ import annotations

import re

import pymupdf

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


# Messages that change nothing figlint reads or the page prints are dropped, not reported:
# - fonts (a glyph index a subset font lacks, a hinting hiccup), from ordinary LaTeX output;
# - PyMuPDF's own note from listing a page's resources (figlint asks for its images) when a
#   form appears twice in the resource tree: a figure file placed twice, or one form shared by
#   two, is valid PDF and is drawn whole ("Circular dependencies! Consider page cleaning.");
# - a stream whose declared /Length is off: MuPDF reads it to its `endstream` marker and uses
#   the true length, so the content is all there.
_BENIGN = re.compile(r"^FT_|glyph|\bfont\b|\bhint|^\.\.\. repeated \d+ times"
                     r"|^Circular dependencies! Consider page cleaning|^PDF stream Length incorrect", re.I)


class _Document(pymupdf.Document):
    """A document opened without its outline (bookmarks): PyMuPDF reads the outline on every
    open, resolving each entry's destination (a tenth of a second of CPU on a long paper for
    each of the several times figlint opens it), and figlint reads no outline."""

    def _loadOutline(self):  # noqa: N802 - PyMuPDF's name
        return None


def open_pdf(*args, **kwargs) -> pymupdf.Document:
    """`pymupdf.open`, without reading the document's outline (which figlint never uses)."""
    return _Document(*args, **kwargs)


_held: list[str] = []  # messages taken out of MuPDF's buffer by hold(), in order


def hold() -> None:
    """Take MuPDF's stored messages out of its buffer, in order, for the next drain(): a reading
    that drops the messages of its own steps (ingest/pdf_forms.py) keeps the others this way."""
    try:
        text = pymupdf.TOOLS.mupdf_warnings(reset=True)
    except Exception:  # noqa: BLE001 - a library without the buffer has nothing to hold
        return
    if text:
        _held.append(text)


def drain() -> list[str]:
    """The messages MuPDF stored since the last call (font noise left out), in order, no repeats."""
    try:
        text = pymupdf.TOOLS.mupdf_warnings(reset=True)
    except Exception:  # noqa: BLE001 - a library without the buffer has nothing to report
        text = ""
    if _held:
        text = "\n".join([*_held, text or ""])
        _held.clear()
    out: list[str] = []
    for line in (text or "").splitlines():
        line = line.strip()
        if line and line not in out and not _BENIGN.search(line):
            out.append(line)
    return out


__all__ = ["drain", "hold", "pymupdf"]
