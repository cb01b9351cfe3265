"""`memlint estimate`: the peak GPU memory of a training step, predicted on a
machine without a GPU by running the step on fake tensors (shapes and dtypes
exact, no data, no memory). Needs torch (the `estimate` extra); the linter
never imports this package.
"""
