"""The model client: litellm, imported lazily, with bounded retries, timeouts, 429 handling and redaction.

litellm is an optional extra (`pip install 'figlint[judge]'`); only the model
protocols import it, never a rules-only run. LITELLM_LOCAL_MODEL_COST_MAP is
set before the import so litellm does not fetch its price list from the
network. Any litellm model string works (openai/..., anthropic/...,
gemini/..., ollama/..., or an OpenAI-compatible `api_base`).

One `complete` call makes at most 1 + retries requests: a 429 waits
(Retry-After when the server sends it, else 1, 2, 4 s; at most 30 s), a
timeout or a connection/server error is retried, and a reply that is not
valid JSON for the stage's schema is sent back to the model with the
validation error, asking for JSON only. Authentication and bad-request
errors are not retried. Every request counts against the run's Budget.

API keys are never logged: they are passed to litellm, not put in messages,
and every error text leaving this module goes through `redact`, which removes
the key in use, the values of *_API_KEY/*_TOKEN/*_SECRET environment
variables, and anything shaped like a bearer token or an `sk-...` key.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from figlint.errors import UsageError
from figlint.judge.cache import Budget

INSTALL_HINT = "the model judge needs litellm: pip install 'figlint[judge]'"
MAX_WAIT = 30.0
_lock = threading.Lock()
_litellm = None


class JudgeUnavailable(UsageError):
    """litellm is not installed (a usage error: one line, exit 2)."""


class JudgeCallError(Exception):
    """A model call gave no usable reply (message already redacted)."""


def load_litellm():
    """Import litellm once, quietly and offline; JudgeUnavailable when it is not installed."""
    global _litellm
    with _lock:
        if _litellm is not None:
            return _litellm
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        os.environ.setdefault("LITELLM_LOG", "ERROR")
        # litellm's own pydantic models warn when they are built (on import and lazily on first call)
        warnings.filterwarnings("ignore", message=r".*`ReadOnly` qualifier", category=UserWarning)
        try:
            import litellm
        except ImportError:
            raise JudgeUnavailable(INSTALL_HINT) from None
        litellm.suppress_debug_info = True
        litellm.telemetry = False
        litellm.drop_params = True  # a provider without response_format just gets the prompt
        for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "httpx", "openai"):
            logger = logging.getLogger(name)
            if not any(isinstance(f, _RedactFilter) for f in logger.filters):
                logger.addFilter(_RedactFilter())
        _litellm = litellm
        return litellm


# ---------------------------------------------------------------- redaction

_SECRET_ENV = re.compile(r"(API_KEY|_TOKEN|_SECRET|_KEY)$")
_PATTERNS = [
    re.compile(r"\bsk-[A-Za-z0-9_\-]{2,}"),
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._\-~+/=]{4,}"),
    re.compile(r"(?i)(api[_-]?key|x-api-key|authorization|token)([\"']?\s*[:=]\s*[\"']?)([^\s\"',}]{4,})"),
    re.compile(r"(?i)([?&](?:key|api_key|token)=)[^&\s]+"),
]


def secrets_in_env() -> list[str]:
    return [v for k, v in os.environ.items() if _SECRET_ENV.search(k) and v and len(v) >= 6]


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with API keys and tokens replaced by [REDACTED]."""
    out = str(text)
    for s in sorted({*(secrets or []), *secrets_in_env()}, key=len, reverse=True):
        if s and len(s) >= 4:
            out = out.replace(s, "[REDACTED]")
    out = _PATTERNS[0].sub("[REDACTED]", out)
    out = _PATTERNS[1].sub("Bearer [REDACTED]", out)
    out = _PATTERNS[2].sub(lambda m: f"{m.group(1)}{m.group(2)}[REDACTED]", out)
    out = _PATTERNS[3].sub(lambda m: f"{m.group(1)}[REDACTED]", out)
    return out


class _RedactFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            record.msg = redact(record.getMessage())
            record.args = ()
        except Exception:  # noqa: BLE001 - logging must never fail
            pass
        return True


# ---------------------------------------------------------------- JSON replies

def extract_json(text: str) -> Any:
    """The JSON object in a model reply: the whole text, a ```json fence, or the outermost {...}."""
    if text is None:
        raise ValueError("the reply is empty")
    t = text.strip()
    try:
        return json.loads(t)
    except ValueError:
        pass
    fence = re.search(r"```(?:json)?\s*(\{.*?\})\s*```", t, re.S)
    if fence:
        return json.loads(fence.group(1))
    start, end = t.find("{"), t.rfind("}")
    if start != -1 and end > start:
        return json.loads(t[start:end + 1])
    raise ValueError("no JSON object in the reply")


@dataclass
class CallStats:
    requests: int = 0
    retries: int = 0
    cost: float = 0.0


class LLM:
    """One model endpoint. Thread-safe: litellm calls are independent."""

    def __init__(self, model: str, *, api_base: str | None = None, api_key: str | None = None,
                 timeout: float = 60.0, retries: int = 2, budget: Budget | None = None,
                 sleep: Callable[[float], None] = time.sleep):
        self.model = model
        self.api_base = api_base or None
        self._api_key = api_key or None
        self.timeout = timeout
        self.retries = retries
        self.budget = budget or Budget()
        self.sleep = sleep
        self.stats = CallStats()
        self._stats_lock = threading.Lock()

    def _secrets(self) -> list[str]:
        return [self._api_key] if self._api_key else []

    def _response_format(self, litellm, schema) -> dict | None:
        try:
            supported = litellm.supports_response_schema(model=self.model)
        except Exception:  # noqa: BLE001 - unknown model: no structured output, JSON by prompt
            supported = False
        if not supported:
            return None
        return {"type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": False}}

    def complete(self, messages: list[dict], schema, check: Callable[[Any], None] | None = None):
        """The reply parsed into `schema` (a pydantic model); `check` may reject it (ValueError) for a retry.

        Raises JudgeCallError (redacted) when no valid reply came within the retries,
        BudgetExhausted when the run's budget allows no further request.
        """
        litellm = load_litellm()
        from pydantic import ValidationError

        msgs = list(messages)
        fmt = self._response_format(litellm, schema)
        last = "no attempt"
        for attempt in range(self.retries + 1):
            self.budget.reserve()
            with self._stats_lock:
                self.stats.requests += 1
                self.stats.retries += attempt > 0
            kwargs: dict[str, Any] = dict(model=self.model, messages=msgs, timeout=self.timeout, temperature=0,
                                          num_retries=0, max_retries=0)
            if self.api_base:
                kwargs["api_base"] = self.api_base
            if self._api_key:
                kwargs["api_key"] = self._api_key
            if fmt:
                kwargs["response_format"] = fmt
            try:
                resp = litellm.completion(**kwargs)
            except litellm.RateLimitError as exc:
                last = f"rate limited (429): {exc}"
                if attempt < self.retries:
                    self.sleep(self._retry_after(exc, attempt))
                continue
            except litellm.Timeout:
                last = f"timed out after {self.timeout:g} s"
                continue
            except (litellm.APIConnectionError, litellm.InternalServerError, litellm.ServiceUnavailableError) as exc:
                last = f"{type(exc).__name__}: {exc}"
                if attempt < self.retries:
                    self.sleep(min(MAX_WAIT, 2.0 ** attempt))
                continue
            except Exception as exc:  # noqa: BLE001 - auth, bad request, unknown model: not retryable
                raise JudgeCallError(redact(f"{type(exc).__name__}: {exc}", self._secrets())) from None
            self._add_cost(litellm, resp)
            try:
                text = resp.choices[0].message.content
            except (AttributeError, IndexError):
                text = None
            try:
                parsed = schema.model_validate(extract_json(text or ""))
                if check is not None:
                    check(parsed)
                return parsed
            except (ValueError, ValidationError) as exc:
                last = f"malformed reply: {_short(exc)}"
                msgs = [*msgs, {"role": "assistant", "content": (text or "")[:4000]},
                        {"role": "user", "content": "Your reply was not valid for the required JSON schema ("
                         f"{_short(exc)}). Reply again with exactly one JSON object and nothing else."}]
        raise JudgeCallError(redact(f"no valid reply from {self.model} after {self.retries + 1} attempts: {last}",
                                    self._secrets()))

    def _retry_after(self, exc: Exception, attempt: int) -> float:
        resp = getattr(exc, "response", None)
        headers = getattr(resp, "headers", None) or {}
        try:
            value = headers.get("retry-after") or headers.get("Retry-After")
            if value is not None:
                return max(0.0, min(MAX_WAIT, float(value)))
        except (TypeError, ValueError):
            pass
        return min(MAX_WAIT, 2.0 ** attempt)

    def _add_cost(self, litellm, resp) -> None:
        cost = 0.0
        try:
            hidden = getattr(resp, "_hidden_params", None) or {}
            cost = hidden.get("response_cost") or litellm.completion_cost(completion_response=resp) or 0.0
        except Exception:  # noqa: BLE001 - unknown price (a local model): counts as free
            cost = 0.0
        self.budget.add_cost(cost)
        with self._stats_lock:
            self.stats.cost += cost


def _short(exc: Exception) -> str:
    text = str(exc).replace("\n", " ")
    return text[:300]
