"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions API with scripted replies.

litellm talks to it through `api_base` exactly as it talks to a provider
(model `openai/test-model`), so the judge is tested end to end over loopback,
without mocking litellm. A reply is chosen by a function of the request (so
concurrent stages get the right reply whatever the order) or popped from a
queue. Each scripted reply is one of:
- a dict or str: 200 with that content (a dict is sent as JSON text);
- Reply(status=429, ...): an error status with optional Retry-After;
- Reply(delay=...): the answer sent after a delay (a timeout when the client gives up first).
Every request is recorded (path, headers, parsed JSON body).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    content: Any = None
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


def stage_of(body: dict) -> str:
    """Which judge stage a request is: the system prompt names it ("STAGE: vision")."""
    for msg in body.get("messages", []):
        if msg.get("role") == "system":
            text = msg["content"] if isinstance(msg["content"], str) else " ".join(
                p.get("text", "") for p in msg["content"] if isinstance(p, dict))
            for line in text.splitlines():
                if line.startswith("STAGE: "):
                    return line.split(":", 1)[1].strip()
    return "?"


def user_text(body: dict) -> str:
    out = []
    for msg in body.get("messages", []):
        if msg.get("role") == "user":
            c = msg["content"]
            out.append(c if isinstance(c, str) else " ".join(p.get("text", "") for p in c if isinstance(p, dict)))
    return "\n".join(out)


class FakeOpenAI:
    def __init__(self, script: Callable[[dict, int], Any] | list | None = None, latency: float = 0.0):
        self.requests: list[dict] = []
        self.script = script
        self.latency = latency
        self.in_flight = 0  # requests being answered now, and the most at once
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._queue = list(script) if isinstance(script, list) else None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                with outer._lock:
                    n = len(outer.requests)
                    outer.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    outer.in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer.in_flight)
                try:
                    self._answer(body, n)
                finally:
                    with outer._lock:
                        outer.in_flight -= 1

            def _answer(self, body, n):
                reply = outer._next(body, n)
                if not isinstance(reply, Reply):
                    reply = Reply(content=reply)
                if outer.latency:
                    time.sleep(outer.latency)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    payload = json.dumps({"error": {"message": reply.content or "rate limited", "type": "rate_limit_error"
                                                    if reply.status == 429 else "error", "code": reply.status}}).encode()
                else:
                    content = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
                    payload = json.dumps({
                        "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
                        "model": body.get("model", "test-model"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    }).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _next(self, body: dict, n: int) -> Any:
        if self._queue is not None:
            with self._lock:
                return self._queue.pop(0) if self._queue else Reply(content="script exhausted", status=500)
        return self.script(body, n)

    @property
    def api_base(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def stages(self) -> list[str]:
        return [stage_of(r["body"]) for r in self.requests]
