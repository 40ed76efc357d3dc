"""Configuration: `[tool.figlint]` in pyproject.toml, else `.figlint.toml`, else defaults.

Files are searched from the first input's directory upwards (stopping at a git
root). Command-line flags override the file. Every key is checked: an unknown
key, a wrong type or an unknown rule code is a UsageError that names it.
Rule options are flat, kebab-case keys declared by the rules (`min-dpi`).
An unknown key or rule code comes with the nearest known one ("did you mean
'min-dpi'?", difflib). `per-file-ignores` maps glob patterns, relative to the
configuration file's folder, to rules skipped in the files they match.
`Config.to_toml()` prints the effective configuration as TOML that reads back
as a configuration file (`figlint config`).
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from figlint.errors import UsageError
from figlint.model import SEVERITIES

GENERAL_KEYS = {
    "select": list,
    "ignore": list,
    "extend-select": list,
    "fail-on": str,
    "ref-macros": list,
    "ocr": str,
    "preview": bool,
}
OCR_MODES = ("auto", "on", "off")

JUDGE_PROTOCOLS = ("rules", "direct", "sidecar", "agent")
# The judge's keys: name -> default (its type is the default's type). Thresholds are
# 0 (off) or a score 1-10; a figure scoring below one gets an FL7xx finding.
JUDGE_KEYS: dict[str, Any] = {
    "judge": "rules",  # protocol: rules (offline, default) | direct | sidecar | agent
    "judge-model": "",  # litellm model string for every stage, e.g. openai/gpt-4o-mini
    "judge-vision-model": "",  # agent protocol: vision stage model (default judge-model)
    "judge-language-model": "",  # agent protocol: language and fusion stages (default judge-model)
    "judge-api-base": "",  # an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1
    "judge-api-key-env": "",  # name of the environment variable holding the key (never the key itself)
    "judge-concurrency": 4,
    "judge-max-calls": 200,  # per run; 0: no limit
    "judge-max-cost": 2.0,  # estimated USD per run; 0: no limit
    "judge-timeout": 60.0,  # seconds per model call
    "judge-retries": 2,  # further attempts after a malformed reply, a timeout or a 429
    "judge-dpi": 150,  # resolution of the figure image sent to the model
    "min-visual-clarity": 0.0,
    "min-structure-layout": 0.0,
    "min-caption-consistency": 0.0,
    "min-context-consistency": 0.0,
    "min-misleading-risk": 0.0,
    "min-overall": 0.0,
}
THRESHOLD_KEYS = {
    "min-visual-clarity": "visual_clarity",
    "min-structure-layout": "structure_layout",
    "min-caption-consistency": "caption_consistency",
    "min-context-consistency": "context_consistency",
    "min-misleading-risk": "misleading_risk",
    "min-overall": "overall",
}


@dataclass
class Config:
    select: list[str] | None = None  # None: the default-enabled rules
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    fail_on: str = "warning"
    options: dict[str, Any] = field(default_factory=dict)
    source: str | None = None  # file the configuration came from
    pdf: str | None = None  # --pdf: the compiled PDF of a LaTeX input (command line only)
    # extra commands that cite a label like \ref (for macros figlint cannot read, e.g. from a
    # package outside the paper); macros defined in the paper are detected on their own
    ref_macros: list[str] = field(default_factory=list)
    # OCR of raster figures (and of vector figures whose text is outlined): "auto" reads
    # figure files given on their own (`figlint chart.png`) and leaves papers' rasters to
    # the pixel-free rules, so a paper run never loads the OCR models; "on" reads all.
    ocr: str = "auto"
    # figure selector (a \label such as "fig:overview", or a number: "3", "Figure 3") -> rules to skip
    per_figure_ignores: dict[str, list[str]] = field(default_factory=dict)
    # glob pattern (relative to the configuration file's folder) -> rules to skip in matching files
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)  # JUDGE_KEYS set in the file or on the command line
    caps: dict[str, int] = field(default_factory=dict)  # rule code or name -> cap on its dimension
    dry_run: bool = False  # --dry-run: count the judge's model calls, make none (command line only)
    # preview rules (not yet proven on audited real papers, see rules/registry.py) join the
    # default set only when this is on; a rule named in select/extend-select always runs.
    # FIGLINT_PREVIEW=1 in the environment turns it on (the file or --preview also can).
    preview: bool = field(default_factory=lambda: preview_from_env())

    def judge_setting(self, key: str) -> Any:
        return self.judge.get(key, JUDGE_KEYS[key])

    def effective(self) -> dict[str, Any]:
        """The configuration as `figlint config --show` prints it."""
        from figlint.rules.registry import option_defaults

        out: dict[str, Any] = {
            "source": self.source or "(defaults)",
            "select": self.select if self.select is not None else ["(default rules)"],
            "ignore": self.ignore,
            "extend-select": self.extend_select,
            "fail-on": self.fail_on,
            "ref-macros": self.ref_macros,
            "ocr": self.ocr,
            "preview": self.preview,
            "per-figure-ignores": self.per_figure_ignores,
            "per-file-ignores": self.per_file_ignores,
        }
        for key in JUDGE_KEYS:
            out[key] = self.judge_setting(key)
        out["caps"] = self.caps
        for key, (_code, default) in sorted(option_defaults().items()):
            out[key] = self.options.get(key, default)
        return out

    def to_toml(self) -> str:
        """The effective configuration as a TOML file that `--config` reads back unchanged."""
        eff = self.effective()
        lines = [f"# figlint configuration (from {_toml_comment(eff.pop('source'))})"]
        if self.select is None:
            eff.pop("select")
            lines.append("# select: the default rules (see `figlint rules`)")
        tables = {k: eff.pop(k) for k in list(eff) if isinstance(eff[k], dict)}
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in eff.items()]
        for name, table in tables.items():
            lines += ["", f"[{_toml_key(name)}]"]
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
        return "\n".join(lines) + "\n"


def _toml_comment(text: str) -> str:
    return " ".join(str(text).split())


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        import json

        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


_LOOKALIKE = str.maketrans({"O": "0", "o": "0", "I": "1", "i": "1", "l": "1", "L": "1"})


def nearest_name(word: str, choices) -> str | None:
    """The known name closest to `word`, or None.

    A rule code typed with a letter for a digit ("FL1O1", "FL2l0") is read as the digits it
    looks like before any distance is measured, so the suggestion does not depend on which
    other codes happen to exist (FL1O1 is one letter from FL101 and from FL111 alike).
    """
    import difflib

    choices = list(choices)
    if word[:2].upper() == "FL":
        as_digits = "FL" + word[2:].translate(_LOOKALIKE)
        if as_digits in choices:
            return as_digits
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def _did_you_mean(word: str, choices) -> str:
    close = nearest_name(word, choices)
    return f" (did you mean '{close}'?)" if close else ""


def preview_from_env() -> bool:
    return os.environ.get("FIGLINT_PREVIEW", "").strip().lower() in ("1", "true", "yes", "on")


def find_config_file(start: Path) -> tuple[Path, dict] | None:
    """The nearest pyproject.toml with [tool.figlint], or .figlint.toml, above `start`."""
    here = start.resolve()
    if here.is_file():
        here = here.parent
    for directory in [here, *here.parents]:
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            data = _read_toml(pyproject)
            if "figlint" in data.get("tool", {}):
                return pyproject, data["tool"]["figlint"]
        dotfile = directory / ".figlint.toml"
        if dotfile.is_file():
            return dotfile, _unwrap(_read_toml(dotfile))
        if (directory / ".git").exists():
            break
    return None


def _read_toml(path: Path) -> dict:
    import tomllib  # only where a configuration file is found

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read configuration {path}: {exc}") from None


def _unwrap(data: dict) -> dict:
    """Accept both a bare .figlint.toml and one that repeats [tool.figlint]."""
    return data.get("tool", {}).get("figlint", data) if "tool" in data else data


def load_config(config_file: str | None, inputs: list[str]) -> Config:
    if config_file:
        path = Path(config_file)
        if not path.is_file():
            raise UsageError(f"configuration file not found: {config_file}")
        data = _read_toml(path)
        table = data["tool"]["figlint"] if "figlint" in data.get("tool", {}) else _unwrap(data)
        return from_table(table, str(path))
    start = Path(inputs[0]) if inputs else Path.cwd()
    while not start.exists() and start != start.parent:
        start = start.parent  # a missing input still finds its project's configuration
    found = find_config_file(start)
    if found is None:
        return Config()
    path, table = found
    return from_table(table, str(path))


def from_table(table: dict, source: str | None = None) -> Config:
    from figlint.rules.registry import option_defaults

    options = option_defaults()
    cfg = Config(source=source)
    where = f" in {source}" if source else ""
    for key, value in table.items():
        if key in GENERAL_KEYS:
            expected = GENERAL_KEYS[key]
            if not isinstance(value, expected) or (expected is list and not all(isinstance(v, str) for v in value)):
                kind = {list: "a list of strings", bool: "true or false"}.get(expected, "a string")
                raise UsageError(f"configuration key '{key}'{where} must be {kind}")
            if key == "select":
                cfg.select = list(value)
            elif key == "ignore":
                cfg.ignore = list(value)
            elif key == "extend-select":
                cfg.extend_select = list(value)
            elif key == "fail-on":
                cfg.fail_on = check_level(value, key)
            elif key == "ocr":
                if value not in OCR_MODES:
                    raise UsageError(f"'ocr'{where} must be one of {', '.join(OCR_MODES)}, not '{value}'")
                cfg.ocr = value
            elif key == "ref-macros":
                cfg.ref_macros = [v.lstrip("\\") for v in value]
            elif key == "preview":
                cfg.preview = value
        elif key == "per-figure-ignores":
            cfg.per_figure_ignores = _per_figure_ignores(value, where)
        elif key == "per-file-ignores":
            cfg.per_file_ignores = _per_file_ignores(value, where)
        elif key in JUDGE_KEYS:
            cfg.judge[key] = check_judge_key(key, value, where)
        elif key == "caps":
            cfg.caps = _caps(value, where)
        elif key in options:
            default = options[key][1]
            cfg.options[key] = _coerce(key, value, default, where)
        else:
            known = [*GENERAL_KEYS, *JUDGE_KEYS, *options, "per-figure-ignores", "per-file-ignores", "caps"]
            raise UsageError(f"unknown configuration key '{key}'{where}{_did_you_mean(key, known)}")
    validate_codes(cfg.select or [], "select")
    validate_codes(cfg.ignore, "ignore")
    validate_codes(cfg.extend_select, "extend-select")
    return cfg


def _per_figure_ignores(value: Any, where: str) -> dict[str, list[str]]:
    return _code_lists(value, where, "per-figure-ignores", "figure",
                       '{ "fig:overview" = ["FL202"], "3" = ["FL101"] }')


def _per_file_ignores(value: Any, where: str) -> dict[str, list[str]]:
    return _code_lists(value, where, "per-file-ignores", "glob",
                       '{ "sections/*.tex" = ["FL302"], "figures/legacy/**" = ["FL1"] }')


def _code_lists(value: Any, where: str, key: str, what: str, example: str) -> dict[str, list[str]]:
    """A table of `what` -> list of rule codes (per-figure and per-file ignores), validated."""
    if not isinstance(value, dict):
        raise UsageError(f"configuration key '{key}'{where} must be a table of {what} -> list of rule codes, "
                         f"e.g. {example}")
    out: dict[str, list[str]] = {}
    for selector, codes in value.items():
        name = f"{key}.{selector}"
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise UsageError(f"configuration key '{name}'{where} must be a list of strings")
        validate_codes(codes, name)
        out[str(selector)] = list(codes)
    return out


def glob_matches(pattern: str, rel: str) -> bool:
    """A per-file-ignores glob matches a POSIX path relative to the configuration's folder.
    `*` stays inside one folder, `**` crosses folders, and a pattern without `/` matches
    the file name in any folder (as .gitignore does)."""
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if pattern.endswith("/"):
        pattern += "**"  # a folder: everything under it
    elif "/" not in pattern:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern) or fnmatch.fnmatchcase(rel, pattern)
    regex = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            regex += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            regex += ".*"
            i += 2
        elif pattern[i] == "*":
            regex += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            regex += "[^/]"
            i += 1
        else:
            regex += re.escape(pattern[i])
            i += 1
    return re.fullmatch(regex, rel) is not None


def _finding_file(f, paper) -> str | None:
    """The absolute file a finding is in (source paths are relative to the paper root)."""
    file = f.location.file
    if not file:
        return None
    if os.path.isabs(file):
        return os.path.normpath(file)
    root = paper.root if paper is not None and paper.root else None
    return os.path.abspath(os.path.join(root, file) if root else file)


def drop_per_file_ignores(findings: list, paper, cfg: Config) -> list:
    """Findings minus those that per-file-ignores switches off for their file."""
    if not cfg.per_file_ignores:
        return findings
    from figlint.rules.registry import all_rules

    names = {r.code: r.name for r in all_rules()}
    base = os.path.dirname(os.path.abspath(cfg.source)) if cfg.source else os.getcwd()
    out = []
    for f in findings:
        path = _finding_file(f, paper)
        rel = os.path.relpath(path, base).replace(os.sep, "/") if path else None
        ignored = rel is not None and not rel.startswith("../") and any(
            glob_matches(pattern, rel) and any(matches(t, f.code, names.get(f.code, f.rule)) for t in codes)
            for pattern, codes in cfg.per_file_ignores.items()
        )
        if not ignored:
            out.append(f)
    return out


def check_judge_key(key: str, value: Any, where: str = "") -> Any:
    """Validate one judge key (from the file or the command line); returns the value to keep."""
    default = JUDGE_KEYS[key]
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        raise UsageError(f"configuration key '{key}'{where} must be {type(default).__name__}, not {value!r}")
    if key == "judge" and value not in JUDGE_PROTOCOLS:
        raise UsageError(f"configuration key 'judge'{where} must be one of {', '.join(JUDGE_PROTOCOLS)}, not {value!r}")
    if key in THRESHOLD_KEYS and not (value == 0 or 1 <= value <= 10):
        raise UsageError(f"configuration key '{key}'{where} must be 0 (off) or a score from 1 to 10, not {value!r}")
    if key in ("judge-concurrency",) and value < 1:
        raise UsageError(f"configuration key '{key}'{where} must be at least 1, not {value!r}")
    if key in ("judge-max-calls", "judge-max-cost", "judge-retries", "judge-timeout", "judge-dpi") and value < 0:
        raise UsageError(f"configuration key '{key}'{where} must not be negative, not {value!r}")
    if key == "judge-timeout" and value == 0:
        raise UsageError(f"configuration key 'judge-timeout'{where} must be more than 0 seconds")
    if key == "judge-dpi" and not 36 <= value <= 600:
        raise UsageError(f"configuration key 'judge-dpi'{where} must be between 36 and 600, not {value!r}")
    return value


def _caps(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise UsageError(f"configuration key 'caps'{where} must be a table of rule -> cap, e.g. {{ FL202 = 5 }}")
    out: dict[str, int] = {}
    for token, cap in value.items():
        if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= 10:
            raise UsageError(f"configuration key 'caps.{token}'{where} must be a score from 1 to 10, not {cap!r}")
        validate_codes([token], "caps")
        from figlint.rules.registry import all_rules

        for r in all_rules():  # a prefix (FL4) caps every rule it names
            if matches(token, r.code, r.name):
                out[r.code] = min(cap, out.get(r.code, 10))
    return out


_FIGURE_WORD = re.compile(r"^(?:figure|fig\.?)\s*", re.IGNORECASE)


def figure_selector_matches(selector: str, number: str | None, labels: list[str]) -> bool:
    """A per-figure-ignores key names this figure: one of its labels, or its printed number."""
    sel = selector.strip()
    if sel in labels:
        return True
    return bool(number) and _FIGURE_WORD.sub("", sel) == number


def drop_per_figure_ignores(findings: list, paper, cfg: Config) -> list:
    """Findings minus those that per-figure-ignores switches off for their figure."""
    if not cfg.per_figure_ignores or paper is None:
        return findings
    from figlint.rules.registry import all_rules

    names = {r.code: r.name for r in all_rules()}
    out = []
    for f in findings:
        fig = paper.figure(f.figure) if f.figure else None
        labels = fig.labels if fig is not None else []
        ignored = any(
            figure_selector_matches(sel, f.figure, labels)
            and any(matches(t, f.code, names.get(f.code, f.rule)) for t in codes)
            for sel, codes in cfg.per_figure_ignores.items()
        )
        if not ignored:
            out.append(f)
    return out


def check_level(value: str, key: str = "fail-on") -> str:
    if value not in SEVERITIES:
        raise UsageError(f"'{key}' must be one of {', '.join(SEVERITIES)}, not '{value}'")
    return value


def _coerce(key: str, value: Any, default: Any, where: str) -> Any:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, (int, float)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise UsageError(
            f"configuration key '{key}'{where} must be {type(default).__name__}, not {value!r}"
        )
    if isinstance(default, str) and default in SEVERITIES:
        check_level(value, key)
    return value


def matches(token: str, code: str, name: str) -> bool:
    """Whether a select/ignore token names this rule: ALL, a code prefix (FL4, FL401), the
    rule's name, its family (visual, caption, misleading, ...) or a group (accessibility)."""
    token = token.strip()
    if token == "ALL" or code.startswith(token.upper()) or token.lower() == name:
        return True
    return token.lower() in _tags(code)


def _tags(code: str) -> tuple[str, ...]:
    from figlint.rules.registry import FAMILIES, get_rule

    try:
        r = get_rule(code)
    except KeyError:
        return (FAMILIES[code[:3]],) if code[:3] in FAMILIES else ()
    return (r.family, *r.groups)


def validate_codes(tokens: list[str], key: str) -> None:
    from figlint.rules.registry import all_rules

    rules = all_rules()
    for token in tokens:
        if not any(matches(token, r.code, r.name) for r in rules):
            from figlint.rules.registry import FAMILIES

            choices = [r.code for r in rules] + [r.name for r in rules] + list(FAMILIES.values())
            hint = _did_you_mean(token.upper() if token[:2].lower() == "fl" else token.lower(), choices)
            raise UsageError(f"unknown rule code, name or family '{token}' in {key}{hint}")


def enabled_rules(cfg: Config):
    """Rules that run: selected (or default) plus extend-select, minus ignore.

    The default set is the stable rules that are on by default, plus the preview ones when
    `preview` is on. Whatever select/extend-select names (code, prefix, name, family, ALL)
    runs whether stable or preview: naming a rule is asking for it."""
    from figlint.rules.registry import all_rules

    out = []
    for r in all_rules():
        if cfg.select is not None:
            on = any(matches(t, r.code, r.name) for t in cfg.select)
        else:
            on = r.default_enabled and (r.stable or cfg.preview)
        on = on or any(matches(t, r.code, r.name) for t in cfg.extend_select)
        if on and not any(matches(t, r.code, r.name) for t in cfg.ignore):
            out.append(r)
    return out
