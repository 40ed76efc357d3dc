"""Configuration: discovery, validation with named keys, selection semantics."""

from __future__ import annotations

import pytest

from figlint.config import Config, enabled_rules, from_table, load_config
from figlint.errors import UsageError


def codes(cfg: Config) -> set[str]:
    return {r.code for r in enabled_rules(cfg)}


def test_defaults_enable_the_stable_rules_only():
    from figlint.rules.registry import all_rules

    rules = all_rules()
    default = codes(Config(preview=False))
    assert default == {r.code for r in rules if r.default_enabled and r.stable}
    # exempt: on unless the field audit measured them below the bar (FL008)
    assert {r.code for r in rules if r.code.startswith("FL0") and not r.proven_wrong} <= default


def test_preview_adds_the_preview_rules():
    from figlint.rules.registry import all_rules

    rules = all_rules()
    preview = {r.code for r in rules if r.default_enabled and not r.stable}
    assert codes(Config(preview=True)) == codes(Config(preview=False)) | preview
    assert "FL601" not in codes(Config(preview=True))  # opt-in rules stay opt-in
    assert from_table({"preview": True}).preview is True
    with pytest.raises(UsageError, match="'preview'"):
        from_table({"preview": "yes"})


def test_naming_a_preview_rule_runs_it():
    from figlint.rules.registry import all_rules

    preview = [r for r in all_rules() if r.default_enabled and not r.stable]
    if not preview:
        pytest.skip("every rule is stable")
    r = preview[0]
    assert r.code not in codes(Config(preview=False))
    assert codes(Config(preview=False, select=[r.code])) == {r.code}
    assert r.code in codes(Config(preview=False, extend_select=[r.name]))
    assert r.code in codes(Config(preview=False, select=["ALL"]))


def test_preview_from_the_environment(monkeypatch):
    monkeypatch.setenv("FIGLINT_PREVIEW", "1")
    assert Config().preview is True
    monkeypatch.setenv("FIGLINT_PREVIEW", "0")
    assert Config().preview is False


def test_select_by_prefix_name_and_ignore():
    visual = codes(Config(select=["FL1"]))
    assert {"FL101", "FL102"} <= visual and all(c.startswith("FL1") for c in visual)
    assert codes(Config(select=["generic-caption"])) == {"FL202"}
    assert "FL102" not in codes(Config(ignore=["tiny-text"]))
    assert codes(Config(select=["FL1"], ignore=["FL101"])) == visual - {"FL101"}


def test_select_by_family_and_group():
    assert codes(Config(select=["visual"])) == codes(Config(select=["FL1"]))
    assert codes(Config(select=["misleading"])) == codes(Config(select=["FL4"]))
    assert "FL601" in codes(Config(extend_select=["accessibility"]))
    assert not any(c.startswith("FL2") for c in codes(Config(ignore=["caption"])))


def test_unknown_key_is_named():
    with pytest.raises(UsageError, match="'min-dip'"):
        from_table({"min-dip": 200})


def test_wrong_type_is_named():
    with pytest.raises(UsageError, match="'min-dpi'"):
        from_table({"min-dpi": "lots"})
    with pytest.raises(UsageError, match="'select'"):
        from_table({"select": "FL101"})


def test_unknown_rule_code_is_an_error():
    with pytest.raises(UsageError, match="FL999"):
        from_table({"ignore": ["FL999"]})


def test_bad_fail_on():
    with pytest.raises(UsageError, match="fail-on"):
        from_table({"fail-on": "fatal"})


def test_pyproject_then_dotfile_discovery(tmp_path):
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper"
    paper.mkdir()
    (tmp_path / ".figlint.toml").write_text('ignore = ["FL303"]\nmin-dpi = 150\n')
    cfg = load_config(None, [str(paper / "main.pdf")])
    assert cfg.ignore == ["FL303"] and cfg.options["min-dpi"] == 150
    (paper / "pyproject.toml").write_text('[tool.figlint]\nfail-on = "error"\n')
    cfg = load_config(None, [str(paper / "main.pdf")])
    assert cfg.fail_on == "error" and cfg.source.endswith("pyproject.toml")


def test_pyproject_without_table_is_skipped(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / ".figlint.toml").write_text('select = ["FL2"]\n')
    assert load_config(None, [str(tmp_path)]).select == ["FL2"]


def test_broken_toml_is_a_usage_error(tmp_path):
    bad = tmp_path / "cfg.toml"
    bad.write_text("select = [")
    with pytest.raises(UsageError, match="cannot read configuration"):
        load_config(str(bad), [])


def test_ref_macros_cite_figures(tmp_path):
    """A package macro figlint cannot read counts as a citation once configured."""
    from figlint.engine import lint_path

    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\n"
        "As \\myfig{fig:a} shows, accuracy rises with depth in every setting we tried.\n"
        "\\begin{figure}\\caption{Accuracy against depth for three widths on CIFAR-10.}"
        "\\label{fig:a}\\end{figure}\n\\end{document}\n")
    before = lint_path(str(tmp_path / "main.tex"), Config(select=["FL301"]))
    assert "FL301" in {f.code for f in before.findings}
    cfg = from_table({"ref-macros": ["\\myfig"], "select": ["FL301"]})
    after = lint_path(str(tmp_path / "main.tex"), cfg)
    assert "FL301" not in {f.code for f in after.findings}
    assert after.paper.figures[0].sites[0].macro == "myfig"
