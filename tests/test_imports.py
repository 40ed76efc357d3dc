"""What a run imports: `--help` loads no heavy library, a rules-only run on a paper without
raster figures loads no OCR (rapidocr, onnxruntime) and no litellm.

Checked by listing the modules a real subprocess imported, not by timing it (the time of
`figlint --help` is measured by benchmarks/speed.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pymupdf", "fitz", "numpy", "cv2", "PIL", "rapidocr", "onnxruntime", "litellm", "jinja2", "pylatexenc")

_PROBE = """
import json, runpy, sys
sys.argv = ["figlint", *json.loads(sys.argv[1])]
try:
    runpy.run_module("figlint", run_name="__main__")
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted({m.split(".")[0] for m in sys.modules})) + "\\n")
"""


def _imported(args: list[str], cwd: Path) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("MODULES ")]
    assert line, proc.stderr
    return set(json.loads(line[-1][len("MODULES "):]))


def test_help_imports_nothing_heavy(tmp_path):
    mods = _imported(["--help"], tmp_path)
    assert "click" in mods
    assert not mods & set(HEAVY), sorted(mods & set(HEAVY))


def _vector_paper(path: Path) -> Path:
    """A one-page PDF with a vector bar chart, its caption and a sentence citing it."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k, h in enumerate((80, 140, 60, 110)):
        page.draw_rect(pymupdf.Rect(150 + 60 * k, 300 - h, 190 + 60 * k, 300), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
    page.draw_line((140, 300), (400, 300))
    page.draw_line((140, 300), (140, 150))
    for k, t in enumerate(("0", "50", "100", "150")):
        page.insert_text((120, 303 - 50 * k), t, fontsize=8)
    page.insert_text((72, 330), "Figure 1: Accuracy of the four models on the test set.", fontsize=10)
    page.insert_text((72, 400), "Figure 1 shows that the second model is the most accurate of the four.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_rules_only_run_without_raster_figures_loads_no_ocr_and_no_litellm(tmp_path):
    pdf = _vector_paper(tmp_path / "paper.pdf")
    mods = _imported([str(pdf), "--no-cache", "--format", "json"], tmp_path)
    assert "pymupdf" in mods  # it did read the paper
    assert not mods & {"rapidocr", "onnxruntime", "litellm"}, sorted(mods & {"rapidocr", "onnxruntime", "litellm"})
