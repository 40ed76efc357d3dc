"""The GitHub Action: action.yml and the example workflow validate; the script runs in a fake GITHUB_* environment.

A real HTTP server on 127.0.0.1 stands in for the GitHub REST API and records
every request, so the comment is checked as GitHub would receive it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from fixtures.pdfs import GENERIC_CAPTION, GOOD_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint import action
from figlint.model import Finding, Location

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "ghs_FAKEtoken0123456789"


class FakeGitHub:
    """Serves the three endpoints the comment needs; `comments` is the PR's existing comments."""

    def __init__(self, comments=None, fail_writes: int | None = None):
        self.comments = list(comments or [])
        self.fail_writes = fail_writes
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
                page = int(self.path.split("page=")[-1]) if "page=" in self.path else 1
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
    payload = {"pull_request": {"number": 7, "head": {"repo": {"full_name": "owner/paper"}}}} if pr else {"ref": "x"}
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
        ("GET", "/repos/owner/paper/issues/7/comments"), ("POST", "/repos/owner/paper/issues/7/comments")]
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
    methods = [(r["method"], r["path"]) for r in gh.requests]
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
    assert [r["method"] for r in gh.requests] == ["GET"]
    assert "## figlint: ✅ passed" in (tmp_path / "summary.md").read_text()
    with FakeGitHub(comments=[{"id": 5, "body": "<!-- figlint -->\nold"}]) as gh:
        run_action(tmp_path, fake_env(tmp_path, gh.url))
    assert [r["method"] for r in gh.requests] == ["GET", "PATCH"]
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
