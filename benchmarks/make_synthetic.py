"""Generate synthetic papers for the speed benchmarks: N pages with proportional figures.

`python benchmarks/make_synthetic.py --pages 10 --figures 8 --out /tmp/syn10`
writes main.tex, vector (PDF) and raster (PNG) matplotlib figures, and compiles
main.pdf with pdflatex. Deterministic: fixed seeds, fixed text.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fixtures.figures import raster_plot, vector_plot  # noqa: E402

WORDS = ("model accuracy training budget depth width layer token corpus baseline error "
         "variance dataset benchmark compute scaling attention encoder decoder loss").split()


def paragraph(rng: random.Random, n: int = 90) -> str:
    sentences, words = [], []
    for _ in range(n):
        words.append(rng.choice(WORDS))
        if len(words) >= rng.randint(10, 18):
            sentences.append(" ".join(words).capitalize() + ".")
            words = []
    return " ".join(sentences)


def make(out: Path, pages: int, figures: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    body = []
    paras_per_page = 3
    fig_every = max(1, (pages * paras_per_page) // max(1, figures))
    n_fig = 0
    for i in range(pages * paras_per_page):
        if i % 12 == 0:
            body.append(rf"\section{{Section {i // 12 + 1}}}")
        text = paragraph(rng)
        if i % fig_every == 0 and n_fig < figures:
            n_fig += 1
            name = f"fig{n_fig}.pdf" if n_fig % 2 else f"fig{n_fig}.png"
            if not (out / name).exists():
                if name.endswith(".pdf"):
                    vector_plot(out / name, 8.0)
                else:
                    raster_plot(out / name, 900, 600)
            text = (rf"Figure~\ref{{fig:{n_fig}}} shows that the accuracy of the model rises with "
                    rf"the compute budget while the error of the baseline stays flat. " + text)
            body.append(
                "\\begin{figure}[t]\\centering\n"
                f"\\includegraphics[width=0.8\\linewidth]{{{name}}}\n"
                f"\\caption{{Accuracy of the model and the baseline against compute budget, run {n_fig}.}}"
                f"\\label{{fig:{n_fig}}}\n\\end{{figure}}"
            )
        body.append(text + "\n")
    tex = out / "main.tex"
    tex.write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage[hidelinks]{hyperref}\n"
        "\\begin{document}\n\\title{Synthetic}\\author{figlint}\\maketitle\n"
        + "\n".join(body) + "\n\\end{document}\n"
    )
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "main.tex"], cwd=out,
                       capture_output=True, check=True, timeout=600)
    for ext in (".aux", ".log", ".out"):
        (out / f"main{ext}").unlink(missing_ok=True)
    return out / "main.pdf"


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--figures", type=int, default=8)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    pdf = make(a.out, a.pages, a.figures)
    import pymupdf

    print(f"{pdf}: {pymupdf.open(pdf).page_count} pages")
