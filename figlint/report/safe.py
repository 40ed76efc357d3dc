"""Paper text made safe to show: no terminal control, no bidi tricks, bounded length.

Captions, labels, file names and citing sentences come from the paper and are
untrusted. Printed raw, an OSC sequence (`ESC ] 0;title BEL` sets the
terminal title, `ESC ] 52;c;<base64> BEL` writes the reader's clipboard), a
CSI sequence, a C0/C1 control or a bidi override (U+202E flips what the reader
sees) acts on the reader's terminal or misleads the reader. Every
human-readable reporter (text, github, markdown, html) passes paper text
through `safe_text` before formatting it:

- whole escape sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-byte ESC
  sequences, and their 8-bit C1 forms) are dropped, payload included;
- any other C0/C1 control, DEL, bidi embedding/override/isolate and the
  invisible directional marks are shown as a visible `\\xNN` / `\\uNNNN`
  escape, so the reader sees that something was there;
- tabs, newlines and line/paragraph separators become one space (reports are
  line-oriented) unless `keep_newlines` is set;
- text longer than `limit` characters is cut with an ellipsis.

`clip` only cuts; machine formats (JSON) use it for long paper text and leave
escaping to the JSON encoder.
"""

from __future__ import annotations

import re

from figlint.lazyre import lazy

# Caps for paper text in reports (documented in README "JSON output").
MESSAGE_LIMIT = 500  # a finding's message
TEXT_LIMIT = 2000  # a caption, sentence or paragraph quoted in a report
ELLIPSIS = "…"

# ESC-introduced sequences, and the same introducers in their 8-bit C1 form
# (0x9B CSI, 0x9D OSC, 0x90 DCS, 0x98 SOS, 0x9E PM, 0x9F APC).
_SEQUENCE = lazy(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI ... final byte
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC/DCS/SOS/PM/APC strings
    r"|\x1b[ -/]*[0-~]?"  # any other ESC sequence (charset selects, ESC c reset, ...)
)
_SPACES = lazy(r"[\t\n\r\v\f\u2028\u2029\x85]")
_SPACES_KEEP_NL = lazy(r"[\t\v\f\u2028\u2029\x85]|\r\n?")
# What is left to make visible: C0 (but \n when kept), DEL, C1, bidi controls and marks.
_CONTROL = lazy(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufff9-\ufffb]")
_CONTROL_NO_NL = lazy(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufff9-\ufffb]")


def _visible(m: re.Match) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def clip(text: str, limit: int | None = TEXT_LIMIT) -> str:
    """`text` cut to at most `limit` characters, ending in an ellipsis when cut."""
    if limit is None or len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def safe_text(text, limit: int | None = TEXT_LIMIT, keep_newlines: bool = False) -> str:
    """Paper text fit for a terminal or a rendered page (see the module docstring)."""
    if text is None:
        return ""
    text = str(text)
    text = _SEQUENCE.sub("", text)
    if keep_newlines:
        text = _SPACES_KEEP_NL.sub(lambda m: "\n" if m.group(0).startswith("\r") else " ", text)
        text = _CONTROL.sub(_visible, text)
    else:
        text = _SPACES.sub(" ", text)
        text = _CONTROL_NO_NL.sub(_visible, text)
    return clip(text, limit)


def has_control(text: str) -> bool:
    """True when `text` holds anything `safe_text` would drop or escape."""
    return bool(_SEQUENCE.search(text) or _CONTROL_NO_NL.search(text))
