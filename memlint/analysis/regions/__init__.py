"""Per-step regions: which loops train or evaluate, which framework hooks run once per batch and under
which grad mode, and which code runs only on some steps (guards, gradient accumulation)."""
