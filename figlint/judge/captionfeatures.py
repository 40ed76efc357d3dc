"""Caption-only features of the offline scorer: what a caption says, measured without a model.

The same function reads a caption from a paper (runtime) and from a gold file
(calibration and `figlint eval`), so the fitted weights in data/offline.json
mean the same thing in both places. Captions in gold files may carry a
"Figure 3:" prefix and Markdown residue from PDF conversion (`[text](#page-2)`,
`*emphasis*`); both are removed first. Pure Python, cheap (well under a
millisecond per caption).
"""

from __future__ import annotations

import math
import re

from figlint.rules.caption import caption_verdict
from figlint.text import normalize, words

# Order matters only for readability of data/offline.json; weights are keyed by name.
FEATURES = (
    "log_words",  # log(1 + words in the caption body)
    "log_specific",  # log(1 + content words that are not generic nouns)
    "short",  # 6 words or fewer
    "generic",  # FL202's verdict with its default options
    "title_case",  # share of capitalised words: a title ("Deep Learning Experiments"), not a description
    "panels",  # log(1 + references to panels: (a), (b), left, top, ...)
    "metric",  # names a metric or measured quantity
    "named_things",  # acronyms / CamelCase names (datasets, models), at most 5
    "numbers",  # carries numbers
    "sentences",  # number of sentences, at most 6
    "examples",  # "examples", "qualitative": sample galleries are rated low for C
    "no_final_stop",  # does not end like a sentence (often truncated)
    "several_labels",  # more than one "Figure N" label: merged captions
)

_LINK = re.compile(r"\[([^\]]*)\]\(#[^)]*\)")
_LABEL = re.compile(r"(?:^|(?<=\s))(?:Figure|Fig\.?)\s*[A-Z]?\d+[a-z]?\s*[:.|]?\s*", re.IGNORECASE)
_PANEL = re.compile(r"\(([a-h]|[ivx]{1,4})\)|\b(left|right|top|bottom|middle|upper|lower)\b", re.IGNORECASE)
_SENT = re.compile(r"(?<=[.!?])\s+")
_EXAMPLES = re.compile(r"\bexamples?\b|qualitative", re.IGNORECASE)
_METRIC = frozenset(
    """accuracy acc error errors loss losses f1 bleu rouge auc roc mse mae rmse precision recall perplexity
    ppl reward rewards score scores latency throughput runtime time speed speedup memory flops fid psnr ssim
    lpips iou map success rate rates likelihood entropy correlation variance regret return returns gain cost
    probability distribution frequency ratio percentage performance""".split()
)


def clean_caption(text: str) -> str:
    """Caption text without Markdown link/emphasis residue, normalised."""
    text = _LINK.sub(r"\1", text)
    text = text.replace("\\(", "(").replace("\\)", ")").replace("*", "").replace("\\", "")
    return normalize(text)


def caption_body(text: str) -> tuple[str, int]:
    """The caption without its "Figure N:" label(s), and how many labels there were."""
    t = clean_caption(text)
    labels = len(_LABEL.findall(t))
    return _LABEL.sub(" ", t).strip(), labels


def caption_features(text: str) -> dict[str, float]:
    body, labels = caption_body(text)
    ws = words(body)
    why, _content, specific = caption_verdict(body)
    tokens = re.findall(r"[A-Za-z][\w\-]*", body)
    title = sum(1 for w in tokens if w[0].isupper()) / max(1, len(tokens))
    named = sum(1 for w in re.findall(r"\b[\w\-]+\b", body)
                if sum(c.isupper() for c in w) >= 2 or re.search(r"[a-z][A-Z]", w))
    sentences = [s for s in _SENT.split(body) if len(s.split()) >= 2]
    return {
        "log_words": math.log1p(len(ws)),
        "log_specific": math.log1p(len(specific)),
        "short": float(len(ws) <= 6),
        "generic": float(why is not None),
        "title_case": title,
        "panels": math.log1p(len(_PANEL.findall(body))),
        "metric": float(any(w in _METRIC for w in ws)),
        "named_things": float(min(named, 5)),
        "numbers": float(bool(re.search(r"\d", body))),
        "sentences": float(min(len(sentences), 6)),
        "examples": float(bool(_EXAMPLES.search(body))),
        "no_final_stop": float(not body.rstrip().endswith((".", ")", "?", "!"))),
        "several_labels": float(labels > 1),
    }
