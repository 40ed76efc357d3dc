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

A form that paints the markers many times (the chart's own Form XObject, as pdfTeX places an
included PDF) is kept decoded too, in three versions of the same paint: as it is; for the text
pass, without its `/P0 Do` of paths-only forms (what blanking those forms gives, without
MuPDF looking each one up); and for the path pass, with each paths-only form's content written
in its place between `q` and `Q` where that is the same paint (`inline_form`): MuPDF then reads
each marker as its path alone, not as a clip to the form's box around it, one dict and one call
fewer per marker. Clips take no paint number (`seqno`), and a form is written in place only when
its box holds every point of its path, so that clip never cut anything: the paths, their boxes
and their paint numbers are the same.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from functools import lru_cache

from figlint.ingest import pdf_markers

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
# A form that paints its paths-only forms fewer times than this is left as it is.
MIN_PAINTS = 64
# A painting form larger than this, decoded, is left as it is (its versions are kept in memory).
MAX_PARENT_BYTES = 8 * 2**20
# The operators by which a content stream can put text or an image on a page (text objects,
# text shown with ' or ", inline images, XObjects, Type 3 glyph set-up) or mark its content
# (marked-content sequences). A form with none of them draws paths only.
_OPERATOR_BYTES = (b"BT", b"ET", b"Tj", b"TJ", b"Tf", b"Do", b"BI", b"ID", b"EI", b"d0", b"d1", b"BDC", b"MC", b"MP",
                   b"DP", b"'", b'"')  # each operator of _TEXT_OR_IMAGE holds one of these
_TEXT_OR_IMAGE = re.compile(rb"(?<![A-Za-z0-9*])(BT|ET|Tj|TJ|Tf|Do|BI|ID|EI|d0|d1|BDC|BMC|EMC|MP|DP)"
                            rb"(?![A-Za-z0-9*])|['\"]")


# A content stream's tokens as inline_form reads them: numbers, operators, array brackets;
# anything else (names, strings, dictionaries, comments) is another token.
_TOKEN = re.compile(rb"([+-]?(?:\d+\.?\d*|\.\d+))|([A-Za-z*'\"]+|[\[\]]|\S)")
# operator -> operands it takes, for the operators a paths-only form may use and keep its
# meaning when written in place (no names: it may use no resources; no cm: its points stay in
# the coordinates of its box). None: a number of numbers (a colour in the current space).
_OPERANDS = {b"m": 2, b"l": 2, b"c": 6, b"v": 4, b"y": 4, b"re": 4, b"h": 0,
             b"S": 0, b"s": 0, b"f": 0, b"F": 0, b"f*": 0, b"B": 0, b"B*": 0, b"b": 0, b"b*": 0,
             b"n": 0, b"W": 0, b"W*": 0, b"q": 0, b"Q": 0, b"w": 1, b"J": 1, b"j": 1, b"M": 1,
             b"i": 1, b"d": -1, b"g": 1, b"G": 1, b"rg": 3, b"RG": 3, b"k": 4, b"K": 4,
             b"sc": None, b"SC": None, b"scn": None, b"SCN": None}
# The keys a form may have and be written in place (its filter is gone once decoded here).
_PLAIN_KEYS = {"Type", "Subtype", "FormType", "BBox", "Matrix", "Length"}
# A literal string of a content stream (one level of nested parentheses read whole).
_STRINGS = re.compile(rb"\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)", re.S)
# A paint of a named XObject as PDF writers set it: its name, one space, Do, then a space or a
# line end (one spelled otherwise is left as it is).
_PAINT = re.compile(rb"/([^\s/\[\]()<>{}%]+) Do(?=[ \r\n])")
_INLINE_IMAGE = re.compile(rb"(?<![A-Za-z0-9*])BI(?![A-Za-z0-9*])")


def _paths_only(data: bytes) -> bool:
    """Whether a content stream has none of _TEXT_OR_IMAGE's operators (as tokens). Where none of
    them occurs even as bytes, as in a marker's path, the token search is not needed."""
    return not any(op in data for op in _OPERATOR_BYTES) or not _TEXT_OR_IMAGE.search(data)


@lru_cache(maxsize=1024)  # a chart's marker shapes are few: the same content recurs form after form
def inline_form(content: bytes, bbox: tuple) -> bytes | None:
    """A paths-only form's content as one line to write in place of its `Do` (between q and
    Q), or None where that would not be the same paint: a name, string or operator outside
    _OPERANDS, an unbalanced q/Q, or a point of its path outside its box `bbox` (x0, y0, x1, y1)
    (the box clips the form where it is painted; written in place, nothing would). The points
    of a curve's control polygon hold the curve, so none outside means no point of the path is."""
    x0, x1 = sorted((bbox[0], bbox[2]))
    y0, y1 = sorted((bbox[1], bbox[3]))
    eps = 1e-6 * max(1.0, abs(x0), abs(x1), abs(y0), abs(y1))
    x0 -= eps
    y0 -= eps
    x1 += eps
    y1 += eps
    nums: list[float] = []
    depth = 0  # q/Q nesting
    in_array = False
    for number, tok in _TOKEN.findall(content):
        if number:
            nums.append(float(number))
            continue
        if tok == b"[" and not in_array:
            in_array = True
            continue
        if tok == b"]" and in_array:
            in_array = False
            continue
        if in_array or tok not in _OPERANDS:
            return None
        want = _OPERANDS[tok]
        if want == -1:  # d: the dash array was read into nums, then its phase
            nums = []
            continue
        if want is not None and len(nums) != want:
            return None
        if tok == b"q":
            depth += 1
        elif tok == b"Q":
            depth -= 1
            if depth < 0:
                return None
        elif tok in (b"m", b"l", b"c", b"v", b"y"):
            xs, ys = nums[0::2], nums[1::2]
            if min(xs) < x0 or max(xs) > x1 or min(ys) < y0 or max(ys) > y1:
                return None
        elif tok == b"re":
            x, y, w, h = nums
            if min(x, x + w) < x0 or max(x, x + w) > x1 or min(y, y + h) < y0 or max(y, y + h) > y1:
                return None
        nums = []
    if depth or nums or in_array:
        return None
    return b" ".join(content.split())


def _pass_bytes(versions: tuple[bytes, bytes, bytes | None, bytes | None]) -> int:
    """The bytes of a painter's versions for the text and path passes (FormInflater.done lets
    them go; the painter as it is stays)."""
    return len(versions[1]) + len(versions[2] or b"") + len(versions[3] or b"")


def _identity(matrix: str) -> bool:
    try:
        return [float(v) for v in matrix.strip("[] ").split()] == [1, 0, 0, 1, 0, 0]
    except ValueError:
        return False


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
        self.inline: dict[int, bytes | None] = {}  # paths-only form -> its content to write in place
        # a form that paints paths-only forms often -> (as it is, for the text pass, for the path
        # pass or None, for the path pass with its long runs of markers collapsed (pdf_markers) or None), all decoded; None:
        # left as it is
        self.painters: dict[int, tuple[bytes, bytes, bytes | None, bytes | None] | None] = {}
        self.runs: dict[int, pdf_markers.Run] = {}  # collapsed runs by id (pdf_markers.sentinel)
        self.runs_of: dict[int, list[int]] = {}  # painter -> the ids of its runs
        self.next_run = 0
        self.painters_on: dict[int, list[int]] = {}  # page number -> its painters

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
                if _paths_only(data):
                    self.paths_only[xref] = data
                    mine.append(xref)
            self._painters(number, forms)
        except Exception:  # noqa: BLE001 - an odd document is read as it is
            self.stopped = True

    def _painters(self, number: int, forms) -> None:
        """The forms of page `number` that paint its paths-only forms, each kept decoded in its
        three versions (the module's docstring). MuPDF's messages are checked as in page()."""
        from figlint.ingest import mupdf as _mupdf

        tools = _mupdf.pymupdf.TOOLS
        doc = self.doc
        names: dict[int, dict[bytes, int]] = {}  # painter -> resource name -> paths-only form
        for xref, name, parent, bbox in forms:
            if parent and xref in self.paths_only:
                names.setdefault(parent, {})[name.encode("latin-1", "replace")] = xref
                if xref not in self.inline:
                    self.inline[xref] = self._inline(xref, bbox)
        mine = self.painters_on[number] = []
        for parent, used in names.items():
            kept = self.painters.get(parent)
            if kept is not None and kept[1] is None:  # let go after an earlier page (done)
                versions = self._versions(parent, kept[0], used)
                if versions is None or self.kept + _pass_bytes(versions) > MAX_TOTAL_BYTES:
                    continue
                self.kept += _pass_bytes(versions)
                self.painters[parent] = versions
            if parent not in self.painters:
                self.painters[parent] = None
                if parent in self.paths_only:
                    continue
                head = doc.xref_object(parent, compressed=True)
                m = _LENGTH.search(head)
                if m is None or m.group(2) or int(m.group(1)) > MAX_PARENT_BYTES:
                    continue
                data = doc.xref_stream(parent)
                if tools.mupdf_warnings(reset=True) or data is None:
                    continue  # damaged: left as it is, its reading reports it as before
                if len(data) > MAX_PARENT_BYTES or (b"BI" in data and _INLINE_IMAGE.search(data)):
                    continue  # an inline image's bytes could hold anything
                versions = self._versions(parent, data, used)
                if versions is None:
                    continue
                size = sum(len(v) for v in versions if v is not None)
                if self.kept + size > MAX_TOTAL_BYTES:
                    continue
                self.kept += size
                doc.update_stream(parent, data, compress=False)  # decoded once, not per reading
                self.painters[parent] = versions
            if self.painters[parent] is not None:
                mine.append(parent)

    def _inline(self, xref: int, bbox) -> bytes | None:
        """The paths-only form `xref` as content to write in place of its paint, or None."""
        doc = self.doc
        if not set(doc.xref_get_keys(xref)) <= _PLAIN_KEYS:
            return None  # its own resources, a group, optional content...
        kind, matrix = doc.xref_get_key(xref, "Matrix")
        if kind != "null" and not _identity(matrix):
            return None
        return inline_form(self.paths_only[xref], tuple(bbox))

    def _versions(self, parent: int, data: bytes, used: dict[bytes, int]) -> tuple[bytes, bytes, bytes | None, bytes | None] | None:
        """(as it is, without the paints of the forms `used`, with those that can be written in
        place written in place or None, that with its long runs collapsed or None: pdf_markers),
        or None when it paints them fewer than MIN_PAINTS times
        or a paint could not be told from text. A paint is `/Name Do` with one space and then a
        space or a line end (as PDF writers set it; one spelled otherwise is left as it is, which
        paints the same); it is looked for as bytes, so no string may hold "Do"."""
        if b"(" in data:
            strings = _STRINGS.findall(data)
            if any(b"Do" in t for t in strings) or \
                    sum(t.count(b"(") - t.count(b"\\(") for t in strings) != data.count(b"(") - data.count(b"\\("):
                return None  # a string that holds "Do", or one _STRING does not read whole
        # one pass: the bytes between paints, and the name each paint paints
        parts = _PAINT.split(data)
        names = parts[1::2]
        if sum(map(used.__contains__, names)) < MIN_PAINTS:
            return None
        inline = self.inline
        kept = {n: b"/" + n + b" Do" for n in set(names)}  # another XObject's paint, as it was
        left_out = {**kept, **dict.fromkeys(used, b"")}
        parts[1::2] = map(left_out.__getitem__, names)
        text = b"".join(parts)
        if not any(inline.get(x) for x in used.values()):
            return data, text, None, None
        by_name = {n: inline.get(x) for n, x in used.items()}
        written = {**kept, **{n: b"q " + c + b" Q" for n, c in by_name.items() if c}}
        parts[1::2] = map(written.__getitem__, names)
        out, runs = pdf_markers.collapse(parts, names, by_name, self.next_run)
        collapsed = None
        if runs:
            self.next_run += len(runs)
            self.runs.update(runs)
            self.runs_of[parent] = list(runs)
            collapsed = b"".join(out)
        return data, text, b"".join(parts), collapsed

    def done(self, number: int) -> None:
        """Page `number` has been read: its painters' versions for the text and path passes are
        let go (each painter stays decoded as it is, and counted), so that those versions are
        bounded by the page being read, not by every page read before it: kept, a chart-heavy
        paper's early painters used up MAX_TOTAL_BYTES and a scatter pages later was read
        with a clip around each marker. A painter that a later page paints too gets its
        versions again there (_painters)."""
        for parent in self.painters_on.pop(number, ()):
            versions = self.painters.get(parent)
            if versions is not None and versions[1] is not None:
                self.kept -= _pass_bytes(versions)
                self.painters[parent] = (versions[0], None, None, None)
                for rid in self.runs_of.pop(parent, ()):
                    self.runs.pop(rid, None)

    @contextmanager
    def text_pass(self, number: int):
        """While the text of page `number` is read, its decoded forms that draw paths only
        (a scatter's markers) are empty: the text device would interpret every marker of every
        point to find no text in any (half the text pass on a scatter's page). Put back after,
        for the reading of paths; `get_texttrace` numbers paint operations with the paths, so
        it is never run inside this."""
        doc = self.doc
        blanked = []
        with self._version(number, 1):
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

    @contextmanager
    def path_pass(self, number: int, collapse: bool = False):
        """While the paths of page `number` are read, its paths-only forms that a painter paints
        often are written in place where that is the same paint (the module's docstring).
        `collapse`: their long runs are collapsed too (pdf_markers), and the runs by id are what
        this gives, for pdf_paths.read_paths; otherwise it gives None."""
        with self._version(number, 2, collapse) as collapsed:
            yield self.runs if collapsed else None

    @contextmanager
    def _version(self, number: int, which: int, collapse: bool = False):
        """Page `number`'s painters in their version `which` (1 for the text pass, 2 for the
        path pass, with `collapse` 3 where a painter has it), put back as they are after. Gives
        whether a collapsed version is in place."""
        doc = self.doc
        changed = []
        collapsed = False
        try:
            for parent in self.painters_on.get(number, ()):
                versions = self.painters[parent]
                version = versions[which]
                runs = collapse and versions[3] is not None
                if runs:
                    version = versions[3]
                if version is None:
                    continue
                try:
                    doc.update_stream(parent, version, compress=False)
                except Exception:  # noqa: BLE001 - the page is read with it as it is
                    break
                changed.append(parent)
                collapsed = collapsed or runs
            yield collapsed
        finally:
            for parent in changed:
                doc.update_stream(parent, self.painters[parent][0], compress=False)
