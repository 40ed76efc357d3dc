"""The GitHub Action: action.yml and the example workflow validate; the script runs in a fake GITHUB_* environment.

A real HTTP server on 127.0.0.1 stands in for the GitHub REST API and records
every request, so the comment is checked as GitHub would receive it.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from fixtures.pdfs import GENERIC_CAPTION, GOOD_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint import action
from figlint.model import Finding, Location

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "ghs_FAKEtoken0123456789"
HEAD_SHA = "1111111111111111111111111111111111111111"
BASE_SHA = "2222222222222222222222222222222222222222"


class FakeGitHub:
    """Serves the endpoints the Action uses: the PR's comments (`comments`), its changed files
    (`files`, as the API lists them, with patches) and file contents at a commit
    (`contents`: {(path, ref): bytes})."""

    def __init__(self, comments=None, fail_writes: int | None = None, files=None, contents=None):
        self.comments = list(comments or [])
        self.fail_writes = fail_writes
        self.files = list(files or [])
        self.contents = dict(contents or {})
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _record(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                      "body": json.loads(raw) if raw else None})

            def _send(self, code, payload):
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):  # noqa: N802
                self._record()
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                page = int(query.get("page", 1))
                if url.path.endswith("/files"):
                    self._send(200, fake.files[(page - 1) * 100: page * 100])
                elif "/contents/" in url.path:
                    path = urllib.parse.unquote(url.path.split("/contents/", 1)[1])
                    data = fake.contents.get((path, query.get("ref")))
                    if data is None:
                        self._send(404, {"message": "Not Found"})
                    else:
                        self._send(200, {"type": "file", "encoding": "base64", "path": path,
                                         "content": base64.b64encode(data).decode()})
                else:
                    self._send(200, fake.comments[(page - 1) * 100: page * 100])

            def _write(self, code):
                self._record()
                if fake.fail_writes:
                    self._send(fake.fail_writes, {"message": "Resource not accessible by integration"})
                else:
                    self._send(code, {"id": 99, "body": fake.requests[-1]["body"]["body"]})

            def do_POST(self):  # noqa: N802
                self._write(201)

            def do_PATCH(self):  # noqa: N802
                self._write(200)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def fake_env(tmp_path: Path, api_url: str, *, pr: bool = True, **extra: str) -> dict[str, str]:
    event = tmp_path / "event.json"
    payload = {"pull_request": {"number": 7, "head": {"sha": HEAD_SHA, "repo": {"full_name": "owner/paper"}},
                                "base": {"sha": BASE_SHA}}} if pr else {"ref": "x"}
    event.write_text(json.dumps(payload))
    (tmp_path / "summary.md").write_text("")
    (tmp_path / "outputs.txt").write_text("")
    (tmp_path / "runner-temp").mkdir(exist_ok=True)
    # FIGLINT_PREVIEW (set for the suite in conftest.py) is kept: the fixture's findings
    # come from rules that are still preview
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "FIGLINT_", "RUNNER_")) or k == "FIGLINT_PREVIEW"}
    env.update({
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request" if pr else "push",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "outputs.txt"),
        "GITHUB_API_URL": api_url,
        "GITHUB_REPOSITORY": "owner/paper",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_SHA": "3333333333333333333333333333333333333333",
        "GITHUB_RUN_ID": "4242",
        "GITHUB_TOKEN": TOKEN,
        "RUNNER_TEMP": str(tmp_path / "runner-temp"),
        "FIGLINT_PATHS": "paper/main.pdf",
    })
    env.update(extra)
    return env


def outputs(tmp_path: Path) -> dict[str, str]:
    lines = (tmp_path / "outputs.txt").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines)


def run_action(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "figlint.action"], cwd=tmp_path / "work", env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def work(tmp_path):
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    (work / "paper").mkdir()
    return work


# --- action.yml and the README workflow ---------------------------------------------------------

@pytest.mark.parametrize("schema,path", [("vendor.github-actions", "action.yml"),
                                         ("vendor.github-workflows", "docs/figlint-workflow.yml")])
def test_check_jsonschema(schema, path):
    proc = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(ROOT / path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_action_yml_wiring():
    import yaml

    spec = yaml.safe_load((ROOT / "action.yml").read_text())
    assert spec["runs"]["using"] == "composite"
    assert {"paths", "config", "fail-on", "annotations", "summary", "comment", "sarif", "judge-model",
            "api-key-secret-name", "python-version"} <= set(spec["inputs"])
    steps = spec["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert '"$GITHUB_ACTION_PATH"' in steps[1]["run"]
    run = next(s for s in steps if s.get("id") == "figlint")
    assert run["run"].strip() == "python -m figlint.action"
    env = run["env"]
    for name in spec["inputs"]:
        if name not in ("python-version", "github-token"):
            assert any(f"inputs.{name} " in v for v in env.values()), name
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@"))
    assert "inputs.sarif == 'true'" in upload["if"]
    assert "github.event.pull_request.head.repo.full_name == github.repository" in upload["if"]
    assert steps[-1]["if"] == "steps.figlint.outputs.exit-code != '0'"
    workflow = (ROOT / "docs" / "figlint-workflow.yml").read_text()
    assert "pull-requests: write" in workflow and "security-events: write" in workflow


# --- the script against a fake GitHub -----------------------------------------------------------

@needs_pdf_route
def test_pull_request_creates_comment(tmp_path, work):
    make_paper_pdf(work / "paper" / "main.pdf", GENERIC_CAPTION)
    with FakeGitHub() as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_SARIF="true"))
    assert proc.returncode == 1, proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr
    # annotations
    annotations = [ln for ln in proc.stdout.splitlines() if ln.startswith("::warning file=")]
    assert annotations and annotations[0].startswith("::warning file=paper/main.pdf,title=FL202 generic-caption::")
    assert "::group::figlint report" in proc.stdout
    # summary
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("## figlint: ❌ failed") and "| Figure 1 |" in summary and "FL202" in summary
    # outputs and files
    out = outputs(tmp_path)
    assert out["exit-code"] == "1" and out["findings"] == "1" and out["comment"] == "created"
    sarif = json.loads(Path(out["sarif-file"]).read_text())
    assert sarif["runs"][0]["results"][0]["ruleId"] == "FL202"
    assert json.loads(Path(out["json-file"]).read_text())["summary"]["findings"] == 1
    body = Path(out["comment-file"]).read_text()
    assert body.startswith("<!-- figlint -->\n## figlint: ❌ failed") and len(body) <= 65_536
    # requests
    assert [(r["method"], r["path"].split("?")[0]) for r in gh.requests] == [
        ("GET", "/repos/owner/paper/pulls/7/files"),
        ("GET", "/repos/owner/paper/issues/7/comments"), ("POST", "/repos/owner/paper/issues/7/comments")]
    # the HTML report, for the artifact, linked from the comment and the summary
    html = Path(out["html-file"]).read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "data:image/png;base64," in html and 'data-code="FL202"' in html
    run_link = "artifact `figlint-report` of [this run](https://github.com/owner/paper/actions/runs/4242)"
    assert run_link in body and run_link in summary
    # locations link to the PR's head commit; nothing changed, so nothing is new
    assert f"(https://github.com/owner/paper/blob/{HEAD_SHA}/paper/main.pdf)" in body
    assert "No new findings" in body and out["new-findings"] == "0"
    post = gh.requests[-1]
    assert post["body"] == {"body": body}
    assert post["headers"]["Authorization"] == f"Bearer {TOKEN}"
    assert post["headers"]["Accept"] == "application/vnd.github+json"


@needs_pdf_route
def test_existing_comment_is_updated_in_place(tmp_path, work):
    make_paper_pdf(work / "paper" / "main.pdf", GENERIC_CAPTION)
    others = [{"id": i, "body": f"review comment {i}"} for i in range(1, 101)]
    mine = {"id": 4242, "body": "<!-- figlint -->\n## figlint: old report"}
    with FakeGitHub(comments=others + [mine]) as gh:  # the marker is on the second page
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url))
    assert proc.returncode == 1
    methods = [(r["method"], r["path"]) for r in gh.requests if "/files" not in r["path"]]
    assert methods[0] == ("GET", "/repos/owner/paper/issues/7/comments?per_page=100&page=1")
    assert methods[1] == ("GET", "/repos/owner/paper/issues/7/comments?per_page=100&page=2")
    assert methods[2] == ("PATCH", "/repos/owner/paper/issues/comments/4242")
    assert "POST" not in {m for m, _ in methods}
    assert gh.requests[-1]["body"]["body"].startswith("<!-- figlint -->")
    assert outputs(tmp_path)["comment"] == "updated"


@needs_pdf_route
def test_clean_paper_updates_but_never_opens_a_comment(tmp_path, work):
    make_paper_pdf(work / "paper" / "main.pdf", GOOD_CAPTION)
    with FakeGitHub() as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [r["method"] for r in gh.requests] == ["GET", "GET"]  # the PR's files, its comments
    assert "## figlint: ✅ passed" in (tmp_path / "summary.md").read_text()
    with FakeGitHub(comments=[{"id": 5, "body": "<!-- figlint -->\nold"}]) as gh:
        run_action(tmp_path, fake_env(tmp_path, gh.url))
    assert [r["method"] for r in gh.requests] == ["GET", "GET", "PATCH"]
    assert "✅ passed" in gh.requests[-1]["body"]["body"]


@needs_pdf_route
def test_read_only_token_warns_and_goes_on(tmp_path, work):
    make_paper_pdf(work / "paper" / "main.pdf", GENERIC_CAPTION)
    with FakeGitHub(fail_writes=403) as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_DEFER_EXIT="true"))
    assert proc.returncode == 0  # deferred: action.yml's last step fails the job
    assert outputs(tmp_path)["exit-code"] == "1" and outputs(tmp_path)["comment"] == "failed"
    warning = [ln for ln in proc.stdout.splitlines() if ln.startswith("::warning::")]
    assert warning and "HTTP 403" in warning[0] and "forks" in warning[0]
    assert TOKEN not in proc.stdout + proc.stderr
    assert "FL202" in (tmp_path / "summary.md").read_text()


@needs_pdf_route
def test_push_event_and_switches_off(tmp_path, work):
    make_paper_pdf(work / "paper" / "main.pdf", GENERIC_CAPTION)
    with FakeGitHub() as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, pr=False, FIGLINT_ANNOTATIONS="false",
                                             FIGLINT_SUMMARY="false"))
    assert proc.returncode == 1
    assert gh.requests == []
    assert "::warning file=" not in proc.stdout
    assert (tmp_path / "summary.md").read_text() == ""
    assert outputs(tmp_path)["comment"] == "skipped"
    assert "sarif-file" not in outputs(tmp_path)


def test_bad_configuration_is_one_error(tmp_path, work):
    with FakeGitHub() as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_FAIL_ON="fatal"))
    assert proc.returncode == 2
    errors = [ln for ln in proc.stdout.splitlines() if ln.startswith("::error::")]
    assert len(errors) == 1 and "fail-on" in errors[0]
    assert outputs(tmp_path)["exit-code"] == "2"
    assert "Traceback" not in proc.stderr


def test_summary_lists_every_finding_beyond_the_annotation_cap(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    r = result.results[0]
    r.findings += [Finding("FL102", "tiny-text", "warning", f"text {i} printed at 4 pt",
                           Location(file="paper/main.pdf", page=2), figure="2") for i in range(30)]
    monkeypatch.setattr(action, "lint", lambda inputs: result)
    env = fake_env(tmp_path, "http://127.0.0.1:9", pr=False, FIGLINT_PATHS="paper/main.pdf")
    assert action.main(env) == 1
    stdout = capsys.readouterr().out
    assert sum(ln.startswith("::warning file=") for ln in stdout.splitlines()) == 32
    summary = (tmp_path / "summary.md").read_text()
    assert all(f"text {i} printed at" in summary for i in range(30))


def test_judge_inputs_are_accepted(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    monkeypatch.setattr(action, "lint", lambda inputs: result)
    env = fake_env(tmp_path, "http://127.0.0.1:9", pr=False, FIGLINT_JUDGE_MODEL="openai/gpt-4o-mini",
                   FIGLINT_API_KEY_ENV="OPENAI_API_KEY", OPENAI_API_KEY="sk-secret")
    action.main(env)
    out = capsys.readouterr().out
    assert "requested but no API key" not in out and "sk-secret" not in out
    cfg = action.build_config(action.Inputs.from_env(env))
    assert cfg.judge["judge"] == "agent" and cfg.judge["judge-model"] == "openai/gpt-4o-mini"
    assert cfg.judge["judge-api-key-env"] == "OPENAI_API_KEY"
    env.pop("OPENAI_API_KEY")
    action.main(env)
    out = capsys.readouterr().out
    assert "::notice::figlint: judge model 'openai/gpt-4o-mini' requested but no API key" in out


def test_inputs_parse_paths_and_flags():
    inputs = action.Inputs.from_env({"FIGLINT_PATHS": "paper/main.tex\n'other paper/main.pdf'", "FIGLINT_SARIF": "True",
                                     "FIGLINT_COMMENT": "false", "RUNNER_TEMP": "/tmp/rt"})
    assert inputs.paths == ["paper/main.tex", "other paper/main.pdf"]
    assert inputs.sarif and not inputs.comment and inputs.annotations and inputs.summary
    assert inputs.sarif_file == "/tmp/rt/figlint.sarif"
    assert inputs.html and inputs.html_file == "/tmp/rt/figlint-report/figlint-report.html"
    assert inputs.artifact_name == "figlint-report"
    assert not action.Inputs.from_env({"FIGLINT_HTML": "false"}).html


# --- the HTML artifact and "new in this pull request" -------------------------------------------

def test_action_yml_uploads_the_html_report():
    import yaml

    spec = yaml.safe_load((ROOT / "action.yml").read_text())
    assert {"html", "artifact-name"} <= set(spec["inputs"]) and {"html-file", "new-findings"} <= set(spec["outputs"])
    steps = spec["runs"]["steps"]
    names = [s.get("id") or s.get("name") for s in steps]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "${{ steps.figlint.outputs.html-file }}"
    assert upload["with"]["name"] == "${{ inputs.artifact-name }}"
    assert "always()" in upload["if"]
    link = next(s for s in steps if "artifact-url" in str(s.get("env", {})))
    assert "GITHUB_STEP_SUMMARY" in link["run"]
    assert names.index("html-report") < len(steps) - 1  # before the step that fails the job


TEX = r"""\documentclass{article}
\begin{document}
\section{Results}
Figure~\ref{fig:a} shows that accuracy rises with the number of labelled examples for both models.

\begin{figure}
\centering
\rule{4cm}{3cm}
\caption{Overview of our method.}
\label{fig:a}
\end{figure}

For an overview, see Figure~\ref{fig:b}.

\begin{figure}
\centering
\rule{4cm}{3cm}
\caption{Results.}
\label{fig:b}
\end{figure}
\end{document}
"""
# The pull request rewrote the second caption (line 18) and nothing else.
PATCH = "@@ -16,3 +16,3 @@\n \\centering\n \\rule{4cm}{3cm}\n-\\caption{Results of the old run.}\n+\\caption{Results.}"


def test_new_findings_are_those_on_changed_lines(tmp_path, work):
    (work / "paper" / "main.tex").write_text(TEX)
    files = [{"filename": "paper/main.tex", "status": "modified", "patch": PATCH},
             {"filename": "README.md", "status": "modified", "patch": "@@ -1 +1 @@\n-a\n+b"}]
    with FakeGitHub(files=files) as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_PATHS="paper/main.tex"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = outputs(tmp_path)
    assert out["findings"] == "3" and out["new-findings"] == "1"
    body = Path(out["comment-file"]).read_text()
    new = body.split("### New in this pull request", 1)[1].split("\n### ", 1)[0]
    link = f"https://github.com/owner/paper/blob/{HEAD_SHA}/paper/main.tex#L18"
    assert f"[paper/main.tex:18]({link})" in new and "FL202" in new and "Figure 2" in new
    assert "#L9)" not in new and "FL302" not in new
    assert "**1 of 3** findings is new (on lines this pull request changes" in new
    # every location in the comment links to its line at the head commit, and the summary says the same
    assert f"[paper/main.tex:9](https://github.com/owner/paper/blob/{HEAD_SHA}/paper/main.tex#L9)" in body
    assert f"[paper/main.tex:13](https://github.com/owner/paper/blob/{HEAD_SHA}/paper/main.tex#L13)" in body
    summary = (tmp_path / "summary.md").read_text()
    assert "### New in this pull request" in summary and link in summary
    # the roll-up counts every finding
    assert "| **Total** | | **3** | |" in body


def test_new_findings_against_the_base_branch_baseline(tmp_path, work):
    """The PR added a baseline entry for its own finding: the base branch's baseline decides, and a note says so."""
    paper = work / "paper" / "main.tex"
    paper.write_text(TEX)
    baseline = work / "figlint-baseline.json"
    subprocess.run([sys.executable, "-m", "figlint", "paper/main.tex", "--no-cache", "--write-baseline",
                    str(baseline)], cwd=work, capture_output=True, text=True, timeout=300)
    head = json.loads(baseline.read_text())
    entries = head["papers"]["paper/main.tex"]
    assert len(entries) == 3
    # On the base branch the baseline knew the first figure's finding only; the PR's copy knows two.
    base = {"figlint_baseline": 1, "papers": {"paper/main.tex": [e for e in entries if e["figure"] == "1"]}}
    head["papers"]["paper/main.tex"] = [e for e in entries if e["code"] != "FL302"]
    baseline.write_text(json.dumps(head))
    contents = {("figlint-baseline.json", BASE_SHA): json.dumps(base).encode()}
    with FakeGitHub(contents=contents) as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_PATHS="paper/main.tex",
                                             FIGLINT_BASELINE="figlint-baseline.json"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = outputs(tmp_path)
    assert out["findings"] == "1" and out["new-findings"] == "1"  # FL302, not in either baseline
    body = Path(out["comment-file"]).read_text()
    assert "or not in the base branch's `figlint-baseline.json`" in body
    assert "This pull request adds 1 entry to `figlint-baseline.json`: findings it hides from this report." in body
    assert ("GET", f"/repos/owner/paper/contents/figlint-baseline.json?ref={BASE_SHA}") in [
        (r["method"], r["path"]) for r in gh.requests]


def test_changed_lines_of_a_patch():
    patch = "@@ -1,4 +1,5 @@\n a\n-b\n+B\n+C\n c\n\\ No newline at end of file\n@@ -20,2 +21,3 @@\n x\n+y\n z"
    assert action.changed_lines(patch) == {2, 3, 22}
    changes = action.Changes.from_api([
        {"filename": "a.tex", "status": "modified", "patch": patch},
        {"filename": "new.tex", "status": "added", "patch": "@@ -0,0 +1 @@\n+x"},
        {"filename": "fig.png", "status": "modified"},
        {"filename": "gone.tex", "status": "removed", "patch": "@@ -1 +0,0 @@\n-x"}])
    assert changes.touches("a.tex", 3) and not changes.touches("a.tex", 4)
    assert changes.touches("new.tex", 99) and changes.touches("new.tex", None)
    assert not changes.touches("fig.png", None) and "fig.png" in changes.files
    assert not changes.touches("gone.tex", 1)


def test_changed_figure_file_makes_its_findings_new(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    fig2 = result.results[0].paper.figures[1]
    (tmp_path / "paper" / "fig2.png").write_bytes(b"\x89PNG")
    fig2.graphics = ["fig2.png"]  # relative to the paper's directory, as the LaTeX route records it
    changes = action.Changes.from_api([{"filename": "paper/fig2.png", "status": "modified"}])
    new = action.new_findings(result, changes, None)
    assert {f.code for f in result.findings if id(f) in new} == {"FL101"}


def test_api_failure_leaves_out_the_new_section(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    monkeypatch.setattr(action, "lint", lambda inputs: result)
    env = fake_env(tmp_path, "http://127.0.0.1:9", FIGLINT_COMMENT="false")  # nothing listens on port 9
    assert action.main(env) == 1
    out = capsys.readouterr().out
    assert "::warning::figlint: could not reach the GitHub API" in out and TOKEN not in out
    summary = (tmp_path / "summary.md").read_text()
    assert "## figlint: ❌ failed" in summary and "New in this pull request" not in summary
