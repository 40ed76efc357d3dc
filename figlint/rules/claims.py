"""Claims in the caption and the citing text checked against what the figure shows (FL408, FL5xx)."""

from __future__ import annotations
