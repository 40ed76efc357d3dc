"""What a file really is, from its first bytes, and whether an image is whole.

A file's name is a claim, not a fact: an HTML error page saved as `paper.pdf`
(a failed download), a JPEG renamed `.png`, or a PNG cut short by an
interrupted copy must be reported as an unreadable input (FL001, exit 2), not
linted as if it were a paper, and not left to fail deep inside a feature as an
internal error (FL009). These checks read the file's head (and, for a PNG,
inflate its data stream once, discarding the pixels), never decode a whole
image into memory.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from figlint.errors import InputError

_HEAD = 2048

# signature -> kind
_MAGIC = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"BM", "bmp"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"%!PS", "postscript"),
    (b"\xc5\xd0\xd3\xc6", "postscript"),  # DOS EPS binary header
)
IMAGE_KINDS = {"png", "jpeg", "gif", "tiff", "bmp", "webp"}
_SUFFIX_KIND = {".pdf": "pdf", ".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".gif": "gif",
                ".tif": "tiff", ".tiff": "tiff", ".bmp": "bmp", ".webp": "webp", ".zip": "zip"}


def kind_of(head: bytes) -> str:
    """The file kind its first bytes show ('unknown' when none of ours)."""
    for sig, kind in _MAGIC:
        if head.startswith(sig):
            return kind
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    # PDF allows junk before the header (within the first 1024 bytes)
    if b"%PDF-" in head[:1024]:
        return "pdf"
    text = head.lstrip()[:200].lower()
    if text.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head", b"<body")) or b"<html" in text:
        return "html"
    if text.startswith(b"{") or text.startswith(b"["):
        return "json"
    return "unknown"


def _describe(kind: str) -> str:
    return {"html": "an HTML page (a failed download?)", "json": "JSON", "unknown": "not a file of that type",
            "zip": "a zip archive", "postscript": "PostScript"}.get(kind, f"a {kind.upper()} file")


def check(path: str) -> str:
    """Raise InputError when the file's content is not what its suffix says; returns its kind."""
    p = Path(path)
    want = _SUFFIX_KIND.get(p.suffix.lower())
    try:
        with open(p, "rb") as fh:
            head = fh.read(_HEAD)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if want is None:
        return kind_of(head)
    if not head:
        raise InputError(f"{path}: empty file")
    got = kind_of(head)
    # an image under another image format's name (a JPEG saved as .png) is still an image:
    # PIL and the figure rules read it by content; only a non-image is unreadable
    if got != want and not (want in IMAGE_KINDS and got in IMAGE_KINDS):
        raise InputError(f"{path}: not a {want.upper()} file: its content is {_describe(got)}")
    if got == "png":
        check_png(p)
    elif got == "jpeg":
        _check_jpeg(p)
    return got


def check_png(p: Path) -> None:
    """Walk the chunks and inflate the IDAT stream to its end (output discarded): a file cut
    short, a bad chunk CRC or a data stream that stops early is an unreadable input."""
    data = p.read_bytes()
    pos = 8
    inflater = zlib.decompressobj()
    saw_idat = saw_end = False
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) < length or len(crc) < 4:
            raise InputError(f"{p}: PNG is truncated (chunk {ctype.decode('latin-1')!r} cut short)")
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != struct.unpack(">I", crc)[0]:
            raise InputError(f"{p}: PNG is damaged (bad checksum in chunk {ctype.decode('latin-1')!r})")
        if ctype == b"IDAT":
            saw_idat = True
            try:
                while body:  # inflate in bounded steps: the output is thrown away
                    inflater.decompress(body, 1 << 20)
                    body = inflater.unconsumed_tail
            except zlib.error as exc:
                raise InputError(f"{p}: PNG image data is corrupt ({exc})") from None
        elif ctype == b"IEND":
            saw_end = True
            break
        pos += 12 + length
    if not saw_idat:
        raise InputError(f"{p}: PNG has no image data")
    while not inflater.eof and inflater.decompress(b"", 1 << 20):
        pass  # output still held back by the step limit
    if not inflater.eof:
        raise InputError(f"{p}: PNG image data is truncated (the compressed stream ends early)")
    if not saw_end:
        raise InputError(f"{p}: PNG is truncated (no end chunk)")


def _check_jpeg(p: Path) -> None:
    size = p.stat().st_size
    with open(p, "rb") as fh:
        fh.seek(max(0, size - 4096))
        tail = fh.read()
    if b"\xff\xd9" not in tail:
        raise InputError(f"{p}: JPEG is truncated (no end-of-image marker)")
