"""Finding fingerprints: one identity for SARIF partialFingerprints and for baselines.

A fingerprint must survive unrelated edits, so it hashes what the finding is
about, never where it currently sits: the rule code, the figure's identity
(its first `\\label`, else its caption text, else its printed number) and the
message with numbers blanked (a DPI of 150 that becomes 160 is the same
problem; a line number in a message must not matter). Inserting a blank line
above a figure therefore keeps every fingerprint. Identical findings are told
apart the way GitHub does it, with an occurrence suffix: `<hash>:1`, `<hash>:2`.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable

from figlint.model import Finding, Paper

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SPACE = re.compile(r"\s+")


def normalise_message(message: str) -> str:
    return _SPACE.sub(" ", _NUMBER.sub("#", message.lower())).strip()


def figure_identity(paper: Paper | None, number: str | None) -> str:
    """What names a figure across edits: label, else caption text, else its number."""
    if not number:
        return ""
    fig = paper.figure(number) if paper is not None else None
    if fig is None:
        return f"number:{number}"
    if fig.labels:
        return f"label:{fig.labels[0]}"
    if fig.caption is not None and fig.caption.text.strip():
        return "caption:" + _SPACE.sub(" ", fig.caption.text.lower()).strip()[:400]
    return f"number:{number}"


def base_hash(f: Finding, paper: Paper | None) -> str:
    key = "\x00".join((f.code, figure_identity(paper, f.figure), normalise_message(f.message)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def fingerprints(findings: Iterable[Finding], paper: Paper | None) -> list[str]:
    """Fingerprints for one paper's findings, in order, with occurrence suffixes."""
    seen: dict[str, int] = {}
    out = []
    for f in findings:
        h = base_hash(f, paper)
        seen[h] = seen.get(h, 0) + 1
        out.append(f"{h}:{seen[h]}")
    return out
