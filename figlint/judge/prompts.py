"""Rendering the judge's prompts (jinja2 templates in prompts/) into chat messages.

Paper text (caption, citing paragraphs, text found in the figure, the stages'
reports) is untrusted: it goes only into delimited data sections,
`<<<DATA NAME nonce>>> ... <<<END DATA NAME nonce>>>`, whose nonce is derived
from the content itself (so it is stable for the cache, yet a caption cannot
contain its own closing marker), and any marker-like text inside the data is
defused. The system prompt says the data is never instructions. Safety does
not rest on the prompt, though: the Runner owns the scores and the caps.

PROMPT_VERSION is a hash of the templates, so editing a prompt invalidates
the cache by itself.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from importlib import resources

_MARKER = re.compile(r"<<<|>>>")


@lru_cache(maxsize=1)
def _env():
    import jinja2

    root = resources.files("figlint.judge").joinpath("prompts")
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(root)), autoescape=False,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                              trim_blocks=False, lstrip_blocks=False)


@lru_cache(maxsize=1)
def prompt_version() -> str:
    root = resources.files("figlint.judge").joinpath("prompts")
    h = hashlib.sha256()
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".j2"):
            h.update(entry.name.encode())
            h.update(entry.read_bytes())
    return "p1-" + h.hexdigest()[:12]


def defuse(text: str) -> str:
    """Untrusted text with the data markers broken up (they could fake the end of a section)."""
    return _MARKER.sub(lambda m: m.group(0)[0] + "\u200b" + m.group(0)[1:], text or "")


def nonce_for(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:10]


def gating_note(gated: list[str]) -> str:
    notes = []
    if "caption_consistency" not in gated:
        notes.append("This figure has no caption: caption_consistency must be null.")
    if "context_consistency" not in gated:
        notes.append("No paragraph of the paper cites this figure: context_consistency must be null.")
    return " ".join(notes) or "The figure has a caption and citing text: score every dimension."


def render(stage: str, **data) -> tuple[str, str]:
    """(system, user) text of a stage: direct, sidecar, vision, language, fusion."""
    env = _env()
    name = "direct" if stage in ("direct", "sidecar") else stage
    safe = {k: defuse(v) if isinstance(v, str) else v for k, v in data.items()}
    safe["nonce"] = nonce_for(stage, *(str(v) for v in data.values()))
    safe.setdefault("stage", stage)
    system = env.get_template(f"{name}.system.j2").render(**safe)
    user = env.get_template(f"{name}.user.j2").render(**safe)
    return system.strip() + "\n", user.strip() + "\n"


def messages(system: str, user: str, image_png: bytes | None = None) -> list[dict]:
    if image_png is None:
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]
    url = "data:image/png;base64," + base64.b64encode(image_png).decode("ascii")
    return [{"role": "system", "content": system},
            {"role": "user", "content": [{"type": "text", "text": user},
                                         {"type": "image_url", "image_url": {"url": url}}]}]
