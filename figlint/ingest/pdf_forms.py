"""Small Form XObjects of a PDF kept decompressed in the open document, so that MuPDF does not
inflate them again each time they are painted.

matplotlib draws every marker of a scatter plot as `/P0 Do`: one small Form XObject (its
path, a hundred-odd bytes of Flate data) painted once per point. MuPDF decodes a form's
content stream each time it runs it, so a scatter of 29,000 markers sets up zlib 29,000
times in each reading of the page (the text pass and the path pass): a tenth of the
instructions of both. Written back unfiltered into the document figlint has open (never
to the file), such a form is decoded once; the content MuPDF then interprets is the same
bytes, so every reading gives the same result.

Messages: MuPDF's warnings are reported as FL010 (figlint/ingest/mupdf.py). The forms are
listed and decoded here before the page is read; a message about decoding one (a damaged
stream) is dropped and that form left as it is, so that reading the page meets the damage
and reports it where it did before. A message while listing the forms (a damaged object)
is kept, in order, and the rest of the document is read as it is.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

# Forms up to this many bytes of compressed data are decoded once. A marker is about 130
# bytes; a whole included graphic (a form of megabytes, painted once) is left compressed.
MAX_FORM_BYTES = 4096
# What is kept decoded is bounded, so that a hostile file cannot make memory of it (Flate
# expands 4 KB into up to 4 MB, which MuPDF would otherwise only stream): a form that
# decodes to more than MAX_DECODED_BYTES stays compressed, and once MAX_TOTAL_BYTES are kept
# the document's other forms are left as they are. A marker decodes to about 360 bytes.
MAX_DECODED_BYTES = 64 * 1024
MAX_TOTAL_BYTES = 32 * 2**20
_LENGTH = re.compile(r"/Length (\d+)( \d+ R)?")
# The operators by which a content stream can put text or an image on a page (text objects,
# text shown with ' or ", inline images, XObjects, Type 3 glyph set-up) or mark its content
# (marked-content sequences). A form with none of them draws paths only.
_TEXT_OR_IMAGE = re.compile(rb"(?<![A-Za-z0-9*])(BT|ET|Tj|TJ|Tf|Do|BI|ID|EI|d0|d1|BDC|BMC|EMC|MP|DP)"
                            rb"(?![A-Za-z0-9*])|['\"]")


def _number(doc, xref: int) -> int:
    """The integer object `xref` (a stream's indirect /Length), or more than MAX_FORM_BYTES."""
    try:
        return int(doc.xref_object(xref, compressed=True))
    except (ValueError, TypeError):
        return MAX_FORM_BYTES + 1


class FormInflater:
    """Decodes the small filtered (compressed) Form XObjects of each page of one document,
    once per form, before the page is read (`page(number)`): written back unfiltered, with
    the same content."""

    def __init__(self, doc) -> None:
        self.doc = doc
        self.seen: set[int] = set()
        # an encrypted document's streams are left as they are (update_stream refuses it)
        self.stopped = bool(getattr(doc, "is_encrypted", False))
        self.count = 0  # forms written back decoded
        self.kept = 0  # their decoded bytes
        self.paths_only: dict[int, bytes] = {}  # decoded forms that draw paths only: their content
        self.on_page: dict[int, list[int]] = {}  # page number -> its forms in paths_only

    def page(self, number: int) -> None:
        if self.stopped:
            return
        from figlint.ingest import mupdf as _mupdf

        tools = _mupdf.pymupdf.TOOLS
        doc = self.doc
        try:
            before = tools.mupdf_warnings(reset=False)
            forms = doc.get_page_xobjects(number)
            if tools.mupdf_warnings(reset=False) != before:
                self.stopped = True  # a damaged object: its message stays where it was met
                return
            if before:
                _mupdf.hold()  # earlier messages kept in order: the buffer is this page's below
            mine = self.on_page[number] = []
            for entry in forms:
                xref = entry[0]
                if xref in self.seen:
                    if xref in self.paths_only:
                        mine.append(xref)
                    continue
                self.seen.add(xref)
                head = doc.xref_object(xref, compressed=True)  # one call, not one per key
                if "/Filter" not in head:
                    continue  # stored plain already
                m = _LENGTH.search(head)
                if m is None:
                    continue
                # an indirect length (cairo writes them): the number it points to
                size = int(m.group(1)) if not m.group(2) else _number(doc, int(m.group(1)))
                if size > MAX_FORM_BYTES:
                    continue
                data = doc.xref_stream(xref)
                if tools.mupdf_warnings(reset=True) or data is None:
                    continue  # damaged: left compressed, its reading reports it as before
                if len(data) > MAX_DECODED_BYTES:
                    continue
                self.kept += len(data)
                if self.kept > MAX_TOTAL_BYTES:
                    self.stopped = True
                    return
                doc.update_stream(xref, data, compress=False)
                self.count += 1
                if not _TEXT_OR_IMAGE.search(data):
                    self.paths_only[xref] = data
                    mine.append(xref)
        except Exception:  # noqa: BLE001 - an odd document is read as it is
            self.stopped = True

    @contextmanager
    def text_pass(self, number: int):
        """While the text of page `number` is read, its decoded forms that draw paths only
        (a scatter's markers) are empty: the text device would interpret every marker of every
        point to find no text in any (half the text pass on a scatter's page). Put back after,
        for the reading of paths; `get_texttrace` numbers paint operations with the paths, so
        it is never run inside this."""
        doc = self.doc
        blanked = []
        try:
            for xref in self.on_page.get(number, ()):
                try:
                    doc.update_stream(xref, b"", compress=False)
                except Exception:  # noqa: BLE001 - the page is read with its forms as they are
                    break
                blanked.append(xref)
            yield
        finally:
            for xref in blanked:
                doc.update_stream(xref, self.paths_only[xref], compress=False)
