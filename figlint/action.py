"""The GitHub Action's script (`python -m figlint.action`): lint once, render every output from that result.

action.yml passes the inputs as FIGLINT_* environment variables. One engine
run produces one RunResult; from it come the JSON report (a file), inline
annotations (workflow commands on stdout; GitHub shows only about ten per
level per step, so the summary carries the full list), the Markdown summary
appended to $GITHUB_STEP_SUMMARY (<= 1 MiB), one pull-request comment created
or updated in place (found by the hidden marker `<!-- figlint -->`, <= 65,536
characters, posted with GITHUB_TOKEN through the REST API; skipped quietly
when there is no token or no pull request, and a warning, not a failure,
when the token is read-only as on pull requests from forks), the
self-contained HTML report (a file action.yml uploads as a workflow
artifact, linked from the comment and the summary) and, opt-in, a SARIF
file for github/codeql-action/upload-sarif. The token is only ever sent in
the Authorization header, never printed.

On a pull request the comment and the summary link every location to its
line at the head commit, and list the findings new in this pull request,
which the script works out itself (figlint.action.new_findings): findings on
lines the pull request adds or changes (from the API's list of the pull
request's files and their patches), in files it adds, or on figures whose
graphics files it adds or changes; and, when a baseline is configured,
findings whose fingerprint is not in the base branch's copy of the baseline
(read through the contents API at the base commit, so a pull request cannot
vouch for its own findings by editing the baseline; entries it adds are
named in a note).

Exit code: figlint's (0 clean, 1 findings at or above the fail level, 2
unreadable input or bad configuration); with FIGLINT_DEFER_EXIT=true the
script exits 0 and leaves the code in the `exit-code` output, so the SARIF
upload step still runs before action.yml's last step fails the job.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

MARKER = "<!-- figlint -->"
COMMENT_LIMIT = 65_536
SUMMARY_LIMIT_BYTES = 1024 * 1024
USER_AGENT = "figlint-action"
MAX_PR_FILES_PAGES = 30  # the API lists at most 3,000 files of a pull request


def _flag(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


@dataclass
class Inputs:
    paths: list[str]
    config: str | None
    fail_on: str | None
    baseline: str | None
    annotations: bool
    summary: bool
    comment: bool
    sarif: bool
    sarif_file: str
    json_file: str
    comment_file: str
    html: bool
    html_file: str
    artifact_name: str
    judge_model: str | None
    api_key_env: str | None
    defer_exit: bool

    @classmethod
    def from_env(cls, env: dict[str, str]) -> Inputs:
        temp = env.get("RUNNER_TEMP") or "."
        return cls(
            paths=shlex.split(env.get("FIGLINT_PATHS", "")),
            config=env.get("FIGLINT_CONFIG") or None,
            fail_on=env.get("FIGLINT_FAIL_ON") or None,
            baseline=env.get("FIGLINT_BASELINE") or None,
            annotations=_flag(env.get("FIGLINT_ANNOTATIONS"), True),
            summary=_flag(env.get("FIGLINT_SUMMARY"), True),
            comment=_flag(env.get("FIGLINT_COMMENT"), True),
            sarif=_flag(env.get("FIGLINT_SARIF"), False),
            sarif_file=env.get("FIGLINT_SARIF_FILE") or os.path.join(temp, "figlint.sarif"),
            json_file=env.get("FIGLINT_JSON_FILE") or os.path.join(temp, "figlint.json"),
            comment_file=env.get("FIGLINT_COMMENT_FILE") or os.path.join(temp, "figlint-comment.md"),
            html=_flag(env.get("FIGLINT_HTML"), True),
            html_file=env.get("FIGLINT_HTML_FILE") or os.path.join(temp, "figlint-report", "figlint-report.html"),
            artifact_name=env.get("FIGLINT_ARTIFACT_NAME") or "figlint-report",
            judge_model=env.get("FIGLINT_JUDGE_MODEL") or None,
            api_key_env=env.get("FIGLINT_API_KEY_ENV") or None,
            defer_exit=_flag(env.get("FIGLINT_DEFER_EXIT"), False),
        )


def _escape(text: str) -> str:
    from figlint.report.github import escape_data

    return escape_data(text)


def log(level: str, message: str) -> None:
    """A workflow command (error/warning/notice/debug) on stdout."""
    print(f"::{level}::{_escape(message)}", flush=True)


def set_outputs(env: dict[str, str], outputs: dict[str, str]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        for key, value in outputs.items():
            fh.write(f"{key}={value}\n")


def lint(inputs: Inputs):
    from figlint import baseline
    from figlint.batch import run_many

    cfg = build_config(inputs)
    # the CLI's input expansion (folders of PDFs, zips, chapter files) and results cache
    result = run_many(inputs.paths, cfg, use_cache=True)
    if inputs.baseline:
        baseline.apply(result, inputs.baseline)
    return result


def build_config(inputs: Inputs):
    from figlint.config import check_level, load_config

    cfg = load_config(inputs.config, inputs.paths)
    if inputs.fail_on:
        cfg.fail_on = check_level(inputs.fail_on, "fail-on")
    if inputs.judge_model:
        # A model named in the workflow turns the model judge on (agent protocol unless the
        # configuration chose another); the key is read from the named variable, never echoed.
        cfg.judge["judge-model"] = inputs.judge_model
        if cfg.judge.get("judge", "rules") == "rules":
            cfg.judge["judge"] = "agent"
        if inputs.api_key_env:
            cfg.judge["judge-api-key-env"] = inputs.api_key_env
    return cfg


def summary_markdown(result, context=None) -> str:
    from figlint.report.markdown import render

    limit = SUMMARY_LIMIT_BYTES - 1024
    while True:
        text = render(result, limit=limit, context=context)
        if len(text.encode("utf-8")) <= SUMMARY_LIMIT_BYTES - 1024:
            return text
        limit //= 2


def comment_body(result, context=None) -> str:
    from figlint.report.markdown import render

    body = f"{MARKER}\n" + render(result, limit=COMMENT_LIMIT - len(MARKER) - 64, context=context)
    assert len(body) <= COMMENT_LIMIT
    return body


def _event(env: dict[str, str]) -> dict:
    path = env.get("GITHUB_EVENT_PATH")
    if not path or not os.path.isfile(path):
        return {}
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return event if isinstance(event, dict) else {}


@dataclass
class PullRequest:
    number: int
    head_sha: str | None
    base_sha: str | None


def pull_request(env: dict[str, str]) -> PullRequest | None:
    pr = _event(env).get("pull_request")
    number = pr.get("number") if isinstance(pr, dict) else None
    if not isinstance(number, int):
        return None

    def sha(side: str) -> str | None:
        value = pr.get(side, {}).get("sha") if isinstance(pr.get(side), dict) else None
        return value if isinstance(value, str) and re.fullmatch(r"[0-9a-fA-F]{7,64}", value) else None

    return PullRequest(number, sha("head"), sha("base"))


def pull_request_number(env: dict[str, str]) -> int | None:
    pr = pull_request(env)
    return pr.number if pr else None


class GitHub:
    """The three REST calls the comment needs, over urllib."""

    def __init__(self, api_url: str, token: str, repository: str):
        self.api = api_url.rstrip("/")
        self._token = token
        self.repo = repository

    def request(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode("utf-8") if body is not None else None
        req = urllib.request.Request(f"{self.api}{path}", data=data, method=method)
        req.add_header("Authorization", f"Bearer {self._token}")
        req.add_header("Accept", "application/vnd.github+json")
        req.add_header("X-GitHub-Api-Version", "2022-11-28")
        req.add_header("User-Agent", USER_AGENT)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - the API URL comes from the runner
            payload = resp.read()
        return json.loads(payload) if payload else None

    def pull_request_files(self, number: int) -> list[dict]:
        files: list[dict] = []
        for page in range(1, MAX_PR_FILES_PAGES + 1):
            batch = self.request("GET", f"/repos/{self.repo}/pulls/{number}/files?per_page=100&page={page}")
            if not batch:
                break
            files += [f for f in batch if isinstance(f, dict)]
            if len(batch) < 100:
                break
        return files

    def file_at(self, path: str, ref: str) -> bytes | None:
        """The file's bytes at commit `ref`, or None when it does not exist there."""
        from urllib.parse import quote

        try:
            data = self.request("GET", f"/repos/{self.repo}/contents/{quote(path)}?ref={ref}")
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise
        if not isinstance(data, dict) or data.get("encoding") != "base64":
            return None
        return base64.b64decode(data.get("content") or "")

    def find_comment(self, number: int) -> int | None:
        page = 1
        while page <= 50:
            batch = self.request("GET", f"/repos/{self.repo}/issues/{number}/comments?per_page=100&page={page}")
            if not batch:
                return None
            for c in batch:
                if MARKER in (c.get("body") or ""):
                    return c["id"]
            if len(batch) < 100:
                return None
            page += 1
        return None

    def upsert_comment(self, number: int, body: str, *, create: bool = True) -> str:
        existing = self.find_comment(number)
        if existing is not None:
            self.request("PATCH", f"/repos/{self.repo}/issues/comments/{existing}", {"body": body})
            return "updated"
        if not create:
            return "skipped"
        self.request("POST", f"/repos/{self.repo}/issues/{number}/comments", {"body": body})
        return "created"


def post_comment(env: dict[str, str], result, body: str) -> str:
    """Create or update the pull-request comment; returns what happened (never raises)."""
    token = env.get("GITHUB_TOKEN") or ""
    repository = env.get("GITHUB_REPOSITORY") or ""
    number = pull_request_number(env)
    if not token or not repository or number is None:
        log("debug", "figlint: no pull request or no token; the comment is not posted")
        return "skipped"
    gh = GitHub(env.get("GITHUB_API_URL") or "https://api.github.com", token, repository)
    try:
        # A clean run does not open a new thread, but does update an earlier report.
        return gh.upsert_comment(number, body, create=bool(result.findings) or result.exit_code() != 0)
    except urllib.error.HTTPError as exc:
        hint = " (pull requests from forks get a read-only token)" if exc.code in (401, 403, 404) else ""
        log("warning", f"figlint: could not post the pull-request comment: HTTP {exc.code}{hint}; "
                       "the job summary has the full report")
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        log("warning", f"figlint: could not reach the GitHub API ({reason}); the job summary has the full report")
    return "failed"


_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def changed_lines(patch: str) -> set[int]:
    """Line numbers (in the new file) that a unified-diff patch adds or changes."""
    lines: set[int] = set()
    new = 0
    for line in patch.splitlines():
        m = _HUNK.match(line)
        if m:
            new = int(m.group(1))
            continue
        if line.startswith("+"):
            lines.add(new)
            new += 1
        elif line.startswith(" ") or line == "":
            new += 1
        # "-" lines and "\\ No newline at end of file" do not advance the new file
    return lines


@dataclass
class Changes:
    """What a pull request changes, per repository path: the changed lines, or None for a file it adds.

    A modified binary file (a figure, a PDF) or a patch too large for the API
    has no lines: it is listed with an empty set, which still marks the
    figures drawn from it as changed.
    """

    files: dict[str, set[int] | None]

    @classmethod
    def from_api(cls, entries: list[dict]) -> Changes:
        files: dict[str, set[int] | None] = {}
        for e in entries:
            name, status = e.get("filename"), e.get("status")
            if not isinstance(name, str) or status == "removed":
                continue
            patch = e.get("patch")
            files[name] = None if status == "added" else (changed_lines(patch) if isinstance(patch, str) else set())
        return cls(files)

    def touches(self, path: str | None, line: int | None) -> bool:
        if path is None or path not in self.files:
            return False
        lines = self.files[path]
        return lines is None or (line is not None and line in lines)


def new_findings(result, changes: Changes | None, base_baseline: dict[str, set[str]] | None) -> set[int]:
    """ids of the findings new in the pull request (see the module docstring for the rules)."""
    from figlint import baseline
    from figlint.fingerprint import fingerprints
    from figlint.report.markdown import assign, repo_path
    from figlint.report.paths import repo_root, source_location

    new: set[int] = set()
    for r in result.results:
        root = repo_root(r.path)
        if changes is not None:
            for fig, own in assign(r.paper, r.findings)[0]:
                if any(repo_path(g, root, r.paper) in changes.files for g in fig.graphics):
                    new.update(id(f) for f in own)
            for f in r.findings:
                loc = source_location(f, r.paper, r.path)
                if changes.touches(repo_path(loc.file or r.path, root, r.paper), loc.line):
                    new.add(id(f))
        if base_baseline is not None:
            known = base_baseline.get(baseline.paper_key(r.path, r.paper), set())
            for f, fp in zip(r.findings, fingerprints(r.findings, r.paper)):
                if fp not in known:
                    new.add(id(f))
    return new


def _parse_baseline(data: bytes) -> dict[str, set[str]] | None:
    try:
        doc = json.loads(data.decode("utf-8"))
        return {k: {e["fingerprint"] for e in v if isinstance(e, dict) and "fingerprint" in e}
                for k, v in doc["papers"].items() if isinstance(v, list)}
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        return None


def report_context(env: dict[str, str], inputs: Inputs, result):
    """Links, the full-report pointer and the new findings for the Markdown of this run (never raises)."""
    from figlint.report.markdown import Context
    from figlint.report.paths import relative_path, repo_root

    ctx = Context()
    server = (env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/")
    repository = env.get("GITHUB_REPOSITORY") or ""
    pr = pull_request(env)
    sha = (pr.head_sha if pr else None) or env.get("GITHUB_SHA") or None
    if repository and sha:
        ctx.blob_url = f"{server}/{repository}/blob/{sha}"
    if inputs.html and repository and env.get("GITHUB_RUN_ID"):
        run_url = f"{server}/{repository}/actions/runs/{env['GITHUB_RUN_ID']}"
        ctx.full_report = f"the HTML report, artifact `{inputs.artifact_name}` of [this run]({run_url})"
    token = env.get("GITHUB_TOKEN") or ""
    if pr is None or not token or not repository or not (inputs.summary or inputs.comment):
        return ctx
    gh = GitHub(env.get("GITHUB_API_URL") or "https://api.github.com", token, repository)
    how = ["on lines this pull request changes, in files it adds, or on figures whose graphics it changes"]
    changes = base_known = None
    try:
        changes = Changes.from_api(gh.pull_request_files(pr.number))
        if inputs.baseline and pr.base_sha:
            root = repo_root(inputs.baseline)
            key = relative_path(inputs.baseline, root)
            data = gh.file_at(key, pr.base_sha)
            base_known = _parse_baseline(data) if data is not None else None
            if base_known is not None:
                how.append(f"or not in the base branch's `{key}`")
                head_known = _parse_baseline(Path(inputs.baseline).read_bytes()) or {}
                added = sum(len(v - base_known.get(k, set())) for k, v in head_known.items())
                if added:
                    ctx.notes.append(f"This pull request adds {added} entr{'y' if added == 1 else 'ies'} to "
                                     f"`{key}`: findings it hides from this report.")
    except urllib.error.HTTPError as exc:
        log("warning", f"figlint: could not read the pull request's changes: HTTP {exc.code}; "
                       "no 'new in this pull request' section")
        return ctx
    except (urllib.error.URLError, OSError, ValueError) as exc:
        log("warning", f"figlint: could not reach the GitHub API ({getattr(exc, 'reason', exc)}); "
                       "no 'new in this pull request' section")
        return ctx
    ctx.new = new_findings(result, changes, base_known)
    ctx.new_how = ", ".join(how)
    return ctx


def _write(path: str, text: str) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def main(env: dict[str, str] | None = None) -> int:
    env = dict(os.environ if env is None else env)
    inputs = Inputs.from_env(env)
    from figlint.errors import FiglintError

    if not inputs.paths:
        log("error", "figlint: the 'paths' input is empty: name the paper to lint (e.g. paper/main.tex)")
        return _finish(env, inputs, 2, {})
    if inputs.judge_model and not (inputs.api_key_env and env.get(inputs.api_key_env)):
        log("notice", f"figlint: judge model '{inputs.judge_model}' requested but no API key found in "
                      f"'{inputs.api_key_env or '(api-key-secret-name not set)'}'; local endpoints need none")
    try:
        result = lint(inputs)
    except FiglintError as exc:
        log("error", f"figlint: {exc}")
        return _finish(env, inputs, 2, {})

    from figlint.report import render

    outputs = {"findings": str(len(result.findings))}
    _write(inputs.json_file, render("json", result))
    outputs["json-file"] = inputs.json_file
    if inputs.html:
        try:
            _write(inputs.html_file, render("html", result))
            outputs["html-file"] = inputs.html_file
        except Exception as exc:  # noqa: BLE001 - the optional report never costs the comment and summary
            log("warning", f"figlint: the HTML report could not be written ({type(exc).__name__}: {exc})")
    context = report_context(env, inputs, result)
    if context.new is not None:
        outputs["new-findings"] = str(len(context.new))
    print("::group::figlint report", flush=True)
    print(render("text", result), end="", flush=True)
    print("::endgroup::", flush=True)
    if inputs.annotations:
        print(render("github", result), end="", flush=True)
    if inputs.summary and env.get("GITHUB_STEP_SUMMARY"):
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as fh:
            fh.write(summary_markdown(result, context) + "\n")
    if inputs.comment:
        body = comment_body(result, context)
        _write(inputs.comment_file, body)
        outputs["comment-file"] = inputs.comment_file
        outputs["comment"] = post_comment(env, result, body)
    if inputs.sarif:
        _write(inputs.sarif_file, render("sarif", result))
        outputs["sarif-file"] = inputs.sarif_file
    for r in result.results:
        if r.error:
            log("error", f"figlint: {r.error}")
    return _finish(env, inputs, result.exit_code(), outputs)


def _finish(env: dict[str, str], inputs: Inputs, code: int, outputs: dict[str, str]) -> int:
    set_outputs(env, {"exit-code": str(code), **outputs})
    return 0 if inputs.defer_exit else code


if __name__ == "__main__":  # pragma: no cover - exercised through subprocess in tests
    sys.exit(main())
