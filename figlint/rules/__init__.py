"""Rule families. Each module registers its rules with @rule on import."""

_LOADED = False


def load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    from figlint.rules import caption, judge, misleading, references, source, tool, visual  # noqa: F401

    _LOADED = True
