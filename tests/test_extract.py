"""`figlint extract`: the figure analysis dumped for debugging, derived features included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")


def _chart(path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(6.0, 2.4))
    x = [1, 2, 3, 4, 5]
    a.errorbar(x, [1.0, 2.0, 3.0, 4.0, 5.0], yerr=0.3, label="ours", color="#1f77b4")
    a.plot(x, [5.0, 4.0, 3.0, 2.0, 1.0], "--", label="baseline", color="#d62728")
    a.set_yticks([0, 1, 2, 3, 4, 5, 6])
    a.set_xlabel("epoch")
    a.set_ylabel("accuracy (%)")
    a.legend()
    a.set_title("(a)", loc="left")
    b.bar(["p", "q", "r"], [3.0, 5.0, 4.0], color="#2ca02c")
    b.set_title("(b)", loc="left")
    fig.tight_layout()
    fig.savefig(path, metadata={"CreationDate": None, "ModDate": None})
    plt.close(fig)
    return path


def _extract(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "figlint", "extract", *args], capture_output=True, text=True,
                          timeout=120)


def test_extract_json_carries_axes_legend_panels_series_and_uncertainty(tmp_path):
    proc = _extract(str(_chart(tmp_path / "chart.pdf")), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    (fig,) = doc["figures"]
    (an,) = fig["analyses"]
    assert an["source"] == "vector"
    left = [a for a in an["axes"] if a["orient"] == "y" and a["side"] == "left"]
    assert left and [t["value"] for t in left[0]["ticks"]][:3] in ([0.0, 1.0, 2.0], [6.0, 5.0, 4.0])
    d = an["derived"]
    assert {e["text"] for e in d["legend"]} == {"ours", "baseline"}
    styles = {e["text"]: e["style"] for e in d["legend"]}
    assert styles == {"ours": "solid", "baseline": "dashed"}
    assert [p["label"] for p in d["panels"]] == ["a", "b"]
    assert d["uncertainty"]["error_bars"] >= 3
    directions = sorted(s["direction"] for s in d["series"])
    assert directions == ["falling", "rising"], d["series"]
    assert {c["name"] for c in d["series_colours"]} >= {"blue", "red"}


def test_extract_text_and_bad_input(tmp_path):
    proc = _extract(str(_chart(tmp_path / "chart.pdf")), "--format", "text")
    assert proc.returncode == 0 and "y axis (left" in proc.stdout
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7\nnot really")
    proc = _extract(str(bad))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.strip()
