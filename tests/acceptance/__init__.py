"""Acceptance tests against the shared corpus (a package, so test module names may repeat those in tests/)."""
