#!/usr/bin/env bash
# One-step set-up for development and tests: TeX Live (for the end-to-end tests,
# which compile real papers with pdflatex) when pdflatex is missing, the document
# classes of the invariance tests, Chromium for the HTML report's browser test,
# then figlint with its test extras. Users who only run figlint need just `pip install .`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=""
apt_install() {  # apt_install WHAT PACKAGE...: install Debian packages, or say what is missing
    local what="$1"; shift
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install.sh: $what not found and no apt-get: install it yourself" >&2
        return 0
    fi
    if [ -z "$APT_UPDATED" ]; then
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        APT_UPDATED=1
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" \
        || echo "install.sh: could not install $what ($*)" >&2
}

if ! command -v pdflatex >/dev/null 2>&1; then
    apt_install "pdflatex" texlive-latex-base texlive-latex-recommended texlive-latex-extra \
        texlive-fonts-recommended latexmk
fi
# The document classes of the invariance tests (tests/test_invariance.py: IEEEtran, acmart,
# llncs, revtex4-2, elsarticle; acmart needs binhex.tex from plain-generic). Without them
# those test cases skip locally.
if command -v kpsewhich >/dev/null 2>&1 && { [ -z "$(kpsewhich acmart.cls)" ] || [ -z "$(kpsewhich binhex.tex)" ]; }; then
    apt_install "texlive-publishers" texlive-publishers texlive-plain-generic
fi
# The HTML report's test renders it in a real headless browser (tests/test_html_report.py).
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
        && ! command -v google-chrome >/dev/null 2>&1; then
    apt_install "chromium" chromium
fi
command -v git >/dev/null 2>&1 || echo "install.sh: git not found (the pre-commit tests need it)" >&2

python -m pip install -q -e '.[test]'
