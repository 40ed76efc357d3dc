"""Rule families. Each module registers its rules with @rule on import."""

_LOADED = False


def load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    from figlint.rules import (  # noqa: F401
        axis_units, caption, caption_marks, claims, judge, legend_cover, misleading, references, source, tool, visual, visual_fit,
    )

    _LOADED = True
