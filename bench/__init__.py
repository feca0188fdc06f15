"""`make bench`: a load harness that starts the real web, worker and a fake model, and measures them.

Entry point: `python -m bench.run --help`. The method and the figures are in docs/performance.md.
"""
