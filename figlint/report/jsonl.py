"""JSON Lines: one object per paper (the JSON report's paper object), for batch runs.

In a batch the CLI prints each line as soon as its paper is done (completion
order); `render` gives all lines in input order. The summary goes to stderr.
"""

from __future__ import annotations

import json

from figlint.report.jsonout import paper_dict


def render_paper(r) -> str:
    return json.dumps(paper_dict(r), ensure_ascii=False) + "\n"


def render(result) -> str:
    return "".join(render_paper(r) for r in result.results)
