"""The Runner of the agent protocol, branch by branch (design.md), and the direct protocol's caps and gating."""

from __future__ import annotations

import pytest

from figlint.judge.runner import direct_scores, finish, mr_from_band, run_agent
from figlint.judge.schemas import DirectReport, FusionReport, LanguageReport, VisionReport
from figlint.model import DIMENSIONS

ALL = list(DIMENSIONS)


def vision(vc=8, sl=7, band=(8, 9), **more):
    return VisionReport.model_validate({"visual_clarity": vc, "structure_layout": sl, "risk_band": list(band), **more})


def language(severity="none", ccap=None, xcap=None):
    return LanguageReport.model_validate({"severity": severity, "caption_cap": ccap, "context_cap": xcap})


def fusion(c=8, ctx=8, mr=9, **more):
    return FusionReport.model_validate({"caption_consistency": c, "context_consistency": ctx, "misleading_risk": mr,
                                        **more})


# ---- MR: every branch of the closed form ------------------------------------------------------

@pytest.mark.parametrize("low,high,severity,expected", [
    (6, 9, "none", 7),  # m = 7.5, a tie: the lower score
    (8, 8, "none", 8),  # m
    (4, 6, "minor", 4),  # max(l, m - 1) = max(4, 4)
    (5, 9, "minor", 6),  # max(5, 6) = 6, l < 7: not raised
    (7, 8, "minor", 7),  # max(7, 6.5) = 7, raised to 7 (l >= 7)
    (7, 7, "minor", 7),  # max(7, 6) = 7
    (9, 10, "minor", 9),  # max(9, 8.5) = 9 (>= 8 already)
    (9, 9, "minor", 9),  # max(9, 8) = 9
    (3, 5, "moderate", 4),  # h <= 5: m = 4
    (2, 5, "moderate", 3),  # h <= 5: m = 3.5 -> 3 (tie lower)
    (4, 8, "moderate", 6),  # h > 5: 6.5 -> 6 (tie lower)
    (1, 3, "severe", 2),  # h <= 3: m = 2
    (2, 3, "severe", 2),  # h <= 3: m = 2.5 -> 2
    (2, 9, "severe", 4),  # h > 3: 4.5 -> 4
    (8, 10, "contradiction", 2),
    (1, 1, "contradiction", 2),
])
def test_mr_branches(low, high, severity, expected):
    assert mr_from_band(low, high, severity) == expected


def test_mr_minor_raise_is_a_floor():
    # With l >= 9 (or >= 7), max(l, m - 1) is already at least l, so the raise to 8 (or 7) is a floor the
    # closed form always meets; the branches still run and must never lower the score.
    for low in (7, 7.5, 8, 9, 9.5, 10):
        for high in (low, min(10, low + 1), 10):
            v = mr_from_band(low, high, "minor")
            assert v >= (8 if low >= 9 else 7)


def test_mr_band_order_and_clip():
    assert mr_from_band(9, 6, "none") == mr_from_band(6, 9, "none")
    assert 1 <= mr_from_band(1, 1, "none") <= 10
    with pytest.raises(ValueError):
        mr_from_band(5, 6, "catastrophic")


# ---- ownership ---------------------------------------------------------------------------------

def test_vc_and_sl_come_from_the_vision_stage_whatever_fusion_says():
    fz = fusion(visual_clarity=1, structure_layout=1)  # extra fields: ignored by the schema
    s = run_agent(vision(vc=9, sl=8), language(), fz, gated=ALL)
    assert s.scores["visual_clarity"] == 9 and s.scores["structure_layout"] == 8


def test_mr_from_fusion_is_replaced_by_the_closed_form():
    s = run_agent(vision(band=(3, 4)), language("none"), fusion(mr=10), gated=ALL)
    assert s.scores["misleading_risk"] == 3  # m = 3.5 -> 3, not the fusion's 10


def test_c_and_ctx_come_from_fusion_clamped_by_language_caps():
    s = run_agent(vision(), language(ccap=6, xcap=5), fusion(c=9, ctx=9), gated=ALL)
    assert s.scores["caption_consistency"] == 6 and s.scores["context_consistency"] == 5
    s = run_agent(vision(), language(ccap=9), fusion(c=7, ctx=8), gated=ALL)
    assert s.scores["caption_consistency"] == 7  # a cap above the score changes nothing


def test_contradiction_sets_mr_2_and_caps_ctx_at_2():
    s = run_agent(vision(band=(9, 10)), language("contradiction"), fusion(c=8, ctx=9), gated=ALL)
    assert s.scores["misleading_risk"] == 2 and s.scores["context_consistency"] == 2
    assert s.scores["caption_consistency"] == 8


def test_rule_and_config_caps_hold_after_the_runner():
    caps = [("caption_consistency", 6, "capped at 6 by FL202 generic-caption"),
            ("context_consistency", 6, "capped at 6 by FL302 bare-pointer-citation"),
            ("misleading_risk", 4, "capped at 4 by configuration (FL401)")]
    s = run_agent(vision(band=(9, 10)), language(), fusion(c=10, ctx=10), gated=ALL, caps=caps)
    assert (s.scores["caption_consistency"], s.scores["context_consistency"], s.scores["misleading_risk"]) == (6, 6, 4)
    assert any("FL202" in r for r in s.reasons["caption_consistency"])


def test_gating_no_caption_no_c_no_context_no_ctx():
    gated = [d for d in ALL if d not in ("caption_consistency", "context_consistency")]
    s = run_agent(vision(), language(), fusion(c=9, ctx=9), gated=gated)
    assert s.scores["caption_consistency"] is None and s.scores["context_consistency"] is None
    assert s.overall == pytest.approx((8 + 7 + 8) / 3, abs=0.01)


def test_fusion_null_for_a_gated_dimension_stays_null():
    s = run_agent(vision(), language(), fusion(c=None, ctx=7), gated=ALL)
    assert s.scores["caption_consistency"] is None


def test_scores_round_ties_lower_for_c_ctx_mr_only():
    s = run_agent(vision(vc=6.5, sl=7.5), language(), fusion(c=6.5, ctx=7.5), gated=ALL)
    assert s.scores["visual_clarity"] == 7 and s.scores["structure_layout"] == 8
    assert s.scores["caption_consistency"] == 6 and s.scores["context_consistency"] == 7


def test_out_of_range_scores_are_clipped_to_the_rubric():
    s = run_agent(vision(vc=14, sl=0), language(), fusion(c=11, ctx=-3), gated=ALL)
    assert s.scores["visual_clarity"] == 10 and s.scores["structure_layout"] == 1
    assert s.scores["caption_consistency"] == 10 and s.scores["context_consistency"] == 1


# ---- direct / sidecar --------------------------------------------------------------------------

def test_direct_scores_capped_and_gated():
    rep = DirectReport.model_validate({"visual_clarity": 9, "structure_layout": 9, "caption_consistency": 10,
                                       "context_consistency": 10, "misleading_risk": 10})
    s = direct_scores(rep, gated=[d for d in ALL if d != "context_consistency"],
                      caps=[("caption_consistency", 6, "FL202")])
    assert s.scores["caption_consistency"] == 6 and s.scores["context_consistency"] is None
    assert s.scores["visual_clarity"] == 9


def test_finish_caps_never_raise_a_score():
    s = finish({d: 3 for d in ALL}, {}, gated=ALL, caps=[("caption_consistency", 6, "cap")])
    assert s.scores["caption_consistency"] == 3
