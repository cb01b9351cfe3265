# Linted as one project with features.py: the candidates are optimized directly (a leaf made to
# require grad), so whatever is computed from them records a graph; keeping a clone of each
# iterate keeps every iteration's graph (botorch's gen_candidates_torch before its fix). A copy
# detached first, the leaf's own `.data`, and a tensor made not to require grad keep none.
import torch

from features import fix_features


def optimize(acquisition, initial, fixed, steps):
    clamped = initial.clamp(0, 1).requires_grad_(True)
    candidates = fix_features(clamped, fixed)
    optimizer = torch.optim.Adam([clamped], lr=0.025)
    trajectory = []
    for _ in range(steps):
        loss = -acquisition(candidates).sum()
        trajectory.append(candidates.clone())  # expect: ML001
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        candidates = fix_features(clamped, fixed)
    return candidates.detach(), trajectory


def optimize_detached(acquisition, initial, fixed, steps):
    clamped = initial.clamp(0, 1).requires_grad_(True)
    candidates = fix_features(clamped, fixed)
    optimizer = torch.optim.Adam([clamped], lr=0.025)
    trajectory = []
    for _ in range(steps):
        loss = -acquisition(candidates).sum()
        trajectory.append(candidates.detach().clone())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        candidates = fix_features(clamped, fixed)
    return candidates.detach(), trajectory


def frozen_start(acquisition, initial, fixed, steps):
    start = initial.clamp(0, 1).requires_grad_(False)
    points = fix_features(start, fixed)
    seen = []
    for _ in range(steps):
        seen.append(points.clone())
        points = points * 0.5
    return seen
