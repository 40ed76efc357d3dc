"""Generate a long synthetic LaTeX paper for the LaTeX-route speed check.

`generate(directory, lines=3000, figures=20)` writes main.tex plus one file per
section (\\input), with figures of every kind the reader handles: plain
`figure`, `figure*`, subfigures, a TikZ picture, `\\captionof`, user reference
macros, `\\cref` lists, an `\\appendix`, comments and a `\\cut{}` block, and
empty graphics files so that resolution has something to find. Returns the
path of main.tex. Run directly to write a paper into a folder:
`python benchmarks/gen_latex_paper.py OUTDIR`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

PREAMBLE = r"""\documentclass[10pt,twocolumn]{article}
\usepackage{graphicx}
\usepackage{subcaption}
\usepackage{tikz}
\usepackage{amsmath}
\usepackage[capitalise]{cleveref}
\graphicspath{{figs/}}
\newcommand{\cut}[1]{}
\newcommand{\figg}[1]{Figure~\ref{fig:#1}}
\newcommand{\name}{Sys\xspace}
\begin{document}
\title{A Generated Paper}
\maketitle
"""

WORDS = ("the model latency throughput baseline improves results under load we measure queue delay "
         "flows network each experiment shows that our system reduces tail while keeping median low").split()


def _sentence(rng: random.Random) -> str:
    n = rng.randint(8, 16)
    words = [rng.choice(WORDS) for _ in range(n)]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def _figure(k: int, rng: random.Random) -> list[str]:
    kind = k % 5
    if kind == 0:
        return [r"\begin{figure}[t]", r"  \centering",
                rf"  \includegraphics[width=\linewidth]{{plot{k}}}",
                rf"  \caption{{Latency of \name{{}} under load {k} with $\alpha={k}$.}}",
                rf"  \label{{fig:f{k}}}", r"\end{figure}"]
    if kind == 1:
        return [r"\begin{figure*}[t]", r"  \centering",
                rf"  \includegraphics[width=.9\textwidth]{{plot{k}.png}}",
                rf"  \caption[Short {k}]{{Throughput over time for run {k}; the shaded band is the 95\% CI.}}\label{{fig:f{k}}}",
                r"\end{figure*}"]
    if kind == 2:
        return [r"\begin{figure}[t]", r"  \centering",
                r"  \begin{subfigure}{.48\linewidth}",
                rf"    \includegraphics[width=\linewidth]{{plot{k}a}}",
                rf"    \caption{{Left part {k}}}\label{{fig:f{k}a}}", r"  \end{subfigure}",
                r"  \begin{subfigure}{.48\linewidth}",
                rf"    \includegraphics[width=\linewidth]{{plot{k}b}}",
                rf"    \caption{{Right part {k}}}\label{{fig:f{k}b}}", r"  \end{subfigure}",
                rf"  \caption{{Two views of experiment {k}.}}", rf"  \label{{fig:f{k}}}", r"\end{figure}"]
    if kind == 3:
        return [r"\begin{figure}[t]", r"  \centering", r"  \begin{tikzpicture}",
                r"    \draw (0,0) -- (1,1);", r"    \node at (0.5,0.5) {x};", r"  \end{tikzpicture}",
                rf"  \caption{{A vector sketch number {k}.}}", rf"  \label{{fig:f{k}}}", r"\end{figure}"]
    return [r"\begin{center}", rf"  \includegraphics[width=.6\linewidth]{{plot{k}}}",
            rf"  \captionof{{figure}}{{An inline picture, number {k}.}}", rf"  \label{{fig:f{k}}}", r"\end{center}"]


def generate(directory: str | Path, lines: int = 3000, figures: int = 20, seed: int = 7) -> Path:
    rng = random.Random(seed)
    root = Path(directory)
    (root / "figs").mkdir(parents=True, exist_ok=True)
    (root / "sections").mkdir(exist_ok=True)
    for k in range(figures):
        ext = ".png" if k % 5 == 1 else ".pdf"
        for suffix in ("", "a", "b"):
            (root / "figs" / f"plot{k}{suffix}{ext}").write_bytes(b"")
    sections = 10
    per_section = max(1, lines // sections)
    fig_slots = sorted(rng.sample(range(sections * 10), figures))
    main = [PREAMBLE.rstrip("\n")]
    fig_k = 0
    total = PREAMBLE.count("\n")
    for s in range(sections):
        if s == sections - 2:
            main.append(r"\appendix")
        main.append(rf"\input{{sections/s{s}}}")
        body: list[str] = [rf"\section{{Section {s}}}", rf"\label{{sec:s{s}}}"]
        for para in range(10):
            slot = s * 10 + para
            if fig_k < figures and slot == fig_slots[fig_k]:
                body += _figure(fig_k, rng)
                fig_k += 1
            n_lines = max(1, per_section // 10 - 3)
            for _ in range(n_lines):
                line = _sentence(rng)
                r = rng.random()
                if fig_k and r < 0.15:
                    j = rng.randrange(fig_k)
                    line += rf" As \cref{{fig:f{j}}} shows, {_sentence(rng).lower()}"
                elif fig_k and r < 0.25:
                    j = rng.randrange(fig_k)
                    line += rf" See \figg{{f{j}}} and Section~\ref{{sec:s{s}}}."
                elif r < 0.3:
                    line += " % a comment with \\ref{fig:f0} inside"
                elif r < 0.32:
                    line += r" \cut{Hidden remark about Figure~\ref{fig:f0}.}"
                body.append(line)
            body.append("")
        (root / "sections" / f"s{s}.tex").write_text("\n".join(body) + "\n")
        total += len(body)
    main.append(r"\end{document}")
    (root / "main.tex").write_text("\n".join(main) + "\n")
    return root / "main.tex"


if __name__ == "__main__":
    out = generate(sys.argv[1] if len(sys.argv) > 1 else "generated-paper")
    n = sum(len(p.read_text().splitlines()) for p in out.parent.rglob("*.tex"))
    print(f"wrote {out} ({n} lines)")
