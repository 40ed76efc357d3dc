"""Allow `python -m figlint`."""

from figlint.cli import run

if __name__ == "__main__":  # pragma: no cover - thin entry point
    run()
