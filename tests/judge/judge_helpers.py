"""Helpers of the judge tests: scripted stage replies, a drawn paper, judge configurations.

No network beyond 127.0.0.1: litellm makes real HTTP requests to FakeOpenAI
(fakeserver.py) through `api_base`; its price list is the local one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from fakeserver import FakeOpenAI, Reply, stage_of, user_text  # noqa: E402

TEST_KEY = "sk-test-7f3b9c2d1e"
MODEL = "openai/test-model"

VISION = {"visual_clarity": 8, "structure_layout": 7, "visual_facts": ["line chart", "accuracy rises"],
          "risk_band": [8, 9], "reasons": {"visual_clarity": "labels readable", "structure_layout": "one panel"}}
LANGUAGE = {"text_facts": ["accuracy over epochs"], "severity": "none", "caption_cap": None, "context_cap": None,
            "reasons": {"caption_consistency": "names metric"}}
FUSION = {"caption_consistency": 8, "context_consistency": 7, "misleading_risk": 9,
          "reasons": {"caption_consistency": "matches", "context_consistency": "claim supported"}}
DIRECT = {"visual_clarity": 7, "structure_layout": 8, "caption_consistency": 9, "context_consistency": 8,
          "misleading_risk": 7, "reasons": {"visual_clarity": "ok"}}


def figure_number(body: dict) -> str:
    m = re.search(r"Figure (\S+?)[.\s]", user_text(body))
    return m.group(1) if m else "?"


def by_stage(**replies):
    """A server script answering each stage with its reply (a value or a function of the request body)."""
    defaults = {"vision": VISION, "language": LANGUAGE, "fusion": FUSION, "direct": DIRECT, "sidecar": DIRECT}
    defaults.update(replies)

    def script(body, n):
        r = defaults.get(stage_of(body), Reply(content="unknown stage", status=500))
        return r(body) if callable(r) else r

    return script


def judge_config(srv: FakeOpenAI | None, protocol: str = "agent", **more):
    from figlint.config import from_table

    table = {"judge": protocol, "judge-model": MODEL, "judge-api-key-env": "FIGLINT_TEST_KEY",
             "judge-timeout": 5.0, "judge-retries": 2, "judge-concurrency": 4}
    if srv is not None:
        table["judge-api-base"] = srv.api_base
    table.update(more)
    return from_table(table)


CAPTIONS = [
    "Top-1 accuracy (%) of ResNet-50 and ViT-B/16 on ImageNet over 90 training epochs.",
    "Validation loss (cross-entropy) of the three optimisers on CIFAR-100.",
    "Throughput in images per second of the four models at batch sizes 1 to 256.",
    "Recall@10 of dense and sparse retrievers on MS MARCO as the index grows.",
    "F1 of the tagger on the five CoNLL languages, with and without pretraining.",
    "BLEU of the translation models on WMT14 English-German by sentence length.",
    "Latency per query (ms) of the three index structures on 1M to 100M vectors.",
    "Calibration error of the classifiers on the held-out split, before and after scaling.",
]
CLAIMS = [
    "Figure {n} shows that ViT-B/16 overtakes ResNet-50 after 40 epochs and ends 3 points higher.",
    "As Figure {n} shows, Adam converges fastest but ends with a higher validation loss than SGD.",
]


def make_paper(tmp_path: Path, n: int = 3, *, captions=None, sites=None, name: str = "paper.pdf"):
    """A one-figure-per-page PDF drawn with PyMuPDF and its Paper record (figures, captions, citing sites)."""
    import pymupdf

    from figlint.model import Caption, CitingSite, Figure, Location, Paper

    pdf = tmp_path / name
    doc = pymupdf.open()
    figures = []
    for i in range(n):
        page = doc.new_page(width=612, height=792)
        box = pymupdf.Rect(100, 100, 500, 400)
        page.draw_rect(box, color=(0, 0, 0), width=1)
        for k in range(5):
            page.draw_rect(pymupdf.Rect(130 + 70 * k, 380 - 40 * (k + 1), 170 + 70 * k, 380), fill=(0.2, 0.3, 0.8))
            page.insert_text((135 + 70 * k, 395), f"g{k}", fontsize=9)
        number = str(i + 1)
        cap = (captions[i] if captions is not None else CAPTIONS[i % len(CAPTIONS)])
        page.insert_text((100, 430), f"Figure {number}: {cap[:80]}", fontsize=9)
        fig_sites = []
        site_text = sites[i] if sites is not None else CLAIMS[i % len(CLAIMS)].format(n=number)
        if site_text:
            fig_sites.append(CitingSite(paragraph=site_text, sentence=site_text, mention=f"Figure {number}",
                                        location=Location(file=str(pdf), page=i + 1)))
        figures.append(Figure(number=number, page=i + 1, bbox=(100.0, 100.0, 500.0, 400.0),
                              caption=Caption(text=cap, label=f"Figure {number}") if cap else None,
                              sites=fig_sites, location=Location(file=str(pdf), page=i + 1)))
    doc.save(pdf)
    return Paper(path=str(pdf), route="pdf", pdf_path=str(pdf), pages=n, page_size=(612.0, 792.0), figures=figures)


def lint(paper, cfg):
    """The rules' findings on a paper record, then the judge (what engine.lint_path does after ingest)."""
    from figlint import judge
    from figlint.config import enabled_rules
    from figlint.engine import lint_paper

    rules = enabled_rules(cfg)
    findings = lint_paper(paper, cfg, rules)
    return findings, judge.score_paper(paper, findings, cfg, {r.code for r in rules})


def scores(paper, number: str) -> dict:
    return paper.figure(number).extra["scores"]
