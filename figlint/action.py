"""The GitHub Action's script (`python -m figlint.action`): lint once, render every output from that result.

action.yml passes the inputs as FIGLINT_* environment variables. One engine
run produces one RunResult; from it come the JSON report (a file), inline
annotations (workflow commands on stdout; GitHub shows only about ten per
level per step, so the summary carries the full list), the Markdown summary
appended to $GITHUB_STEP_SUMMARY (<= 1 MiB), one pull-request comment created
or updated in place (found by the hidden marker `<!-- figlint -->`, <= 65,536
characters, posted with GITHUB_TOKEN through the REST API; skipped quietly
when there is no token or no pull request, and a warning, not a failure,
when the token is read-only as on pull requests from forks) and, opt-in, a
SARIF file for github/codeql-action/upload-sarif. The token is only ever
sent in the Authorization header, never printed.

Exit code: figlint's (0 clean, 1 findings at or above the fail level, 2
unreadable input or bad configuration); with FIGLINT_DEFER_EXIT=true the
script exits 0 and leaves the code in the `exit-code` output, so the SARIF
upload step still runs before action.yml's last step fails the job.
"""

from __future__ import annotations

import json
import os
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


def summary_markdown(result) -> str:
    from figlint.report.markdown import render

    limit = SUMMARY_LIMIT_BYTES - 1024
    while True:
        text = render(result, limit=limit)
        if len(text.encode("utf-8")) <= SUMMARY_LIMIT_BYTES - 1024:
            return text
        limit //= 2


def comment_body(result) -> str:
    from figlint.report.markdown import render

    body = f"{MARKER}\n" + render(result, limit=COMMENT_LIMIT - len(MARKER) - 64)
    assert len(body) <= COMMENT_LIMIT
    return body


def pull_request_number(env: dict[str, str]) -> int | None:
    path = env.get("GITHUB_EVENT_PATH")
    if not path or not os.path.isfile(path):
        return None
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    pr = event.get("pull_request") if isinstance(event, dict) else None
    number = pr.get("number") if isinstance(pr, dict) else None
    return number if isinstance(number, int) else None


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
    print("::group::figlint report", flush=True)
    print(render("text", result), end="", flush=True)
    print("::endgroup::", flush=True)
    if inputs.annotations:
        print(render("github", result), end="", flush=True)
    if inputs.summary and env.get("GITHUB_STEP_SUMMARY"):
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as fh:
            fh.write(summary_markdown(result) + "\n")
    if inputs.comment:
        body = comment_body(result)
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
