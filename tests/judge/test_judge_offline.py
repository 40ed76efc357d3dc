"""The offline scorer (protocol `rules`): bands, caps, ties, gating, thresholds, speed; no model, no network."""

from __future__ import annotations

import sys
import time

import pytest
from judge_helpers import lint, make_paper, scores

from figlint.config import Config, from_table
from figlint.judge import offline
from figlint.model import DIMENSIONS, Finding

LONG = ("Top-1 accuracy (%) of ResNet-50, ViT-B/16 and ConvNeXt-T on ImageNet over 90 epochs: (a) training, "
        "(b) validation. ViT overtakes ResNet after 40 epochs and ends 3 points higher.")


def f(code, dim, severity="warning", cap=None, taxonomy=None, **evidence):
    return Finding(code=code, rule=code.lower(), severity=severity, message="m", figure="1", dimension=dim,
                   cap=cap, taxonomy=taxonomy, evidence=evidence)


def test_constants_are_shipped_and_loaded_once():
    m1, m2 = offline.load_model(), offline.load_model()
    assert m1 is m2 and m1.version
    assert set(m1.models) == set(DIMENSIONS)


def test_l1_gating():
    assert offline.score_evidence(None, 0) is None  # neither: not scored
    s = offline.score_evidence(LONG, 0)
    assert s.scores["context_consistency"] is None and s.scores["caption_consistency"] is not None
    s = offline.score_evidence(None, 2)
    assert s.scores["caption_consistency"] is None and s.scores["context_consistency"] is not None
    assert s.overall == pytest.approx(sum(v for v in s.scores.values() if v is not None) / 4, abs=0.01)


def test_generic_caption_cap_holds_and_long_caption_scores_higher():
    good = offline.score_caption_row(LONG, 1)
    generic = offline.score_caption_row("Overview of our method.", 1)
    assert generic.scores["caption_consistency"] <= 6
    assert good.scores["caption_consistency"] > generic.scores["caption_consistency"]
    assert good.scores["visual_clarity"] == generic.scores["visual_clarity"]  # a weak caption never lowers VC


def test_caps_hold_regardless_of_the_base():
    s = offline.score_evidence(LONG, 3, [f("FL202", "caption_consistency", cap=6),
                                         f("FL302", "context_consistency", cap=6)])
    assert s.scores["caption_consistency"] <= 6 and s.scores["context_consistency"] <= 6
    assert any("FL202" in r for r in s.reasons["caption_consistency"])


def test_bands_by_severity_and_grading():
    base = offline.score_evidence(LONG, 1)
    assert base.scores["visual_clarity"] >= 7
    warn = offline.score_evidence(LONG, 1, [f("FL101", "visual_clarity", effective_dpi=220)])
    assert warn.scores["visual_clarity"] <= 6  # noticeable: 5-6
    serious = offline.score_evidence(LONG, 1, [f("FL101", "visual_clarity", effective_dpi=49)])
    assert serious.scores["visual_clarity"] <= 4  # key labels illegible: 3-4
    note = offline.score_evidence(LONG, 1, [f("FL303", "context_consistency", severity="note")])
    assert note.scores["context_consistency"] <= 8  # minor: 7-8
    two = offline.score_evidence(LONG, 1, [f("FL101", "visual_clarity", effective_dpi=220),
                                           f("FL102", "visual_clarity", smallest_pt=5.0)])
    assert two.scores["visual_clarity"] < warn.scores["visual_clarity"]  # each further finding lowers


def test_misleading_design_and_contradiction():
    trunc = offline.score_evidence(LONG, 1, [f("FL401", "misleading_risk", taxonomy="truncated_axis")])
    assert trunc.scores["misleading_risk"] <= 5
    contra = offline.score_evidence(LONG, 1, [f("FL599", None, taxonomy="incorrect_reading")])
    assert contra.scores["context_consistency"] == 2 and contra.scores["misleading_risk"] == 2


def test_config_caps_come_on_top():
    s = offline.score_evidence(LONG, 1, [f("FL202", "caption_consistency", cap=6)], config_caps={"FL202": 4})
    assert s.scores["caption_consistency"] == 4
    s = offline.score_evidence(LONG, 1, [f("FL202", "caption_consistency", cap=6)], config_caps={"FL202": 8})
    assert s.scores["caption_consistency"] <= 6  # configuration cannot lift the rubric's cap


def test_ties_go_to_the_lower_score_for_c_ctx_mr():
    assert offline.to_int(6.5, "caption_consistency") == 6
    assert offline.to_int(6.5, "context_consistency") == 6
    assert offline.to_int(6.5, "misleading_risk") == 6
    assert offline.to_int(6.5, "visual_clarity") == 7
    assert offline.to_int(6.51, "caption_consistency") == 7
    assert offline.to_int(12, "visual_clarity") == 10 and offline.to_int(-1, "misleading_risk") == 1


def test_paper_scores_and_default_thresholds_off(tmp_path):
    paper = make_paper(tmp_path, 2, captions=[LONG, "Overview of our method."],
                       sites=["Figure 1 shows that ViT overtakes ResNet after 40 epochs.", "See Figure 2."])
    findings, extra = lint(paper, Config())
    assert extra == []  # no thresholds configured: no FL7xx
    s1, s2 = scores(paper, "1"), scores(paper, "2")
    assert set(s1) == {*DIMENSIONS, "overall"}
    assert s2["caption_consistency"] <= 6 and s2["context_consistency"] <= 6  # FL202, FL302
    assert paper.figure("2").extra["judge"]["protocol"] == "rules"


def test_thresholds_make_fl7xx_findings_with_reasons(tmp_path):
    paper = make_paper(tmp_path, 2, captions=[LONG, "Overview of our method."],
                       sites=["Figure 1 shows that ViT overtakes ResNet after 40 epochs.", "See Figure 2."])
    cfg = from_table({"min-caption-consistency": 7, "min-overall": 9.5, "min-context-consistency": 7})
    _findings, extra = lint(paper, cfg)
    codes = {(x.code, x.figure) for x in extra}
    assert ("FL705", "2") in codes and ("FL706", "2") in codes and ("FL701", "2") in codes
    fl705 = next(x for x in extra if x.code == "FL705")
    assert "below threshold 7.0" in fl705.message and "FL202" in fl705.message
    assert fl705.evidence["threshold"] == 7.0 and fl705.evidence["reasons"]
    fl701 = next(x for x in extra if x.code == "FL701" and x.figure == "2")
    assert fl701.message.startswith("Figure 2: overall score ") and "below threshold 9.5" in fl701.message
    # select/ignore applies to FL7xx like to any rule
    cfg.ignore = ["FL705"]
    _findings, extra = lint(paper, cfg)
    assert not any(x.code == "FL705" for x in extra)


def test_offline_scorer_speed():
    paper_caps = [LONG, "Overview of our method.", "Validation loss on CIFAR-100 for three optimisers."] * 100
    offline.score_caption_row(LONG, 1)  # warm
    t0 = time.process_time()
    for cap in paper_caps:
        offline.score_evidence(cap, 2, [f("FL202", "caption_consistency", cap=6)])
    per = (time.process_time() - t0) / len(paper_caps)
    assert per < 0.005, f"{per * 1000:.2f} ms per figure"


def test_offline_path_imports_no_model_machinery():
    # The default protocol must not pull in litellm (nor the model protocols' modules).
    import subprocess

    code = ("import sys\nfrom figlint.judge import offline\noffline.score_caption_row('Accuracy of A and B.', 1)\n"
            "print(sorted(m for m in ('litellm', 'figlint.judge.llm', 'figlint.judge.protocols') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.parametrize("table,needle", [
    ({"judge": "oracle"}, "must be one of rules, direct, sidecar, agent"),
    ({"min-overall": 11}, "'min-overall'"),
    ({"judge-concurrency": 0}, "at least 1"),
    ({"judge-max-calls": "many"}, "'judge-max-calls' must be int"),
    ({"caps": {"FL999": 3}}, "FL999"),
    ({"caps": {"FL202": 0}}, "'caps.FL202'"),
])
def test_judge_configuration_errors_name_the_key(table, needle):
    from figlint.errors import UsageError

    with pytest.raises(UsageError, match=None) as exc:
        from_table(table)
    assert needle in str(exc.value)


def test_judge_configuration_values():
    cfg = from_table({"judge": "direct", "judge-timeout": 5, "caps": {"FL4": 4, "generic-caption": 5}})
    assert cfg.judge_setting("judge") == "direct" and cfg.judge_setting("judge-timeout") == 5.0
    assert cfg.judge_setting("judge-max-calls") == 200  # default
    assert cfg.caps["FL202"] == 5 and cfg.caps["FL401"] == 4
    assert cfg.effective()["caps"] == cfg.caps and cfg.effective()["judge"] == "direct"
