#!/usr/bin/env bash
# One-step set-up for development and tests: TeX Live (for the end-to-end tests,
# which compile real papers with pdflatex) when pdflatex is missing, then figlint
# with its test extras. Users who only run figlint need just `pip install .`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v pdflatex >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        SUDO=""
        [ "$(id -u)" -ne 0 ] && SUDO="sudo"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            texlive-latex-base texlive-latex-recommended texlive-latex-extra \
            texlive-fonts-recommended latexmk
    else
        echo "install.sh: pdflatex not found and no apt-get: install TeX Live yourself" >&2
    fi
fi
# The document classes of the invariance tests (tests/test_invariance.py: IEEEtran, acmart,
# llncs, revtex4-2, elsarticle; acmart needs binhex.tex from plain-generic). Without them
# those test cases skip.
if command -v kpsewhich >/dev/null 2>&1 && { [ -z "$(kpsewhich acmart.cls)" ] || [ -z "$(kpsewhich binhex.tex)" ]; } \
        && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        texlive-publishers texlive-plain-generic || echo "install.sh: could not install texlive-publishers" >&2
fi
command -v git >/dev/null 2>&1 || echo "install.sh: git not found (the pre-commit tests need it)" >&2

python -m pip install -q -e '.[test]'
