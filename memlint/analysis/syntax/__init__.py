"""The syntax layer: one file's tree, positions, scopes, call sites, imports and expression helpers.

Nothing here knows about autograd, devices or training loops; everything above builds on it.
"""
