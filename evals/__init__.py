"""Guardrail evaluation: corpora with a tuning part and a frozen test part, scored per layer and family.

`make eval` runs `python -m evals.run`, which prints one table.
"""
