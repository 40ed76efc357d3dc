"""figlint: a pre-submission linter for the figures of scientific papers.

Kept import-light on purpose: `figlint --help` must not pay for PyMuPDF,
OpenCV, OCR models or litellm. Heavy modules are imported where they are used.
"""

__version__ = "0.1.0"
