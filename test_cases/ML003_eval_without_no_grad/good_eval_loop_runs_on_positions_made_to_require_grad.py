# A potential returns forces by differentiating its energy with respect to the positions inside its
# forward. The positions are made to require grad before the warm-up loop (in place, or as a new leaf
# handed by keyword), so the loop runs the model with grad on on purpose, in eval mode too.
import torch


def warm_up(model, z, pos):
    model.eval()
    pos = pos.to("cuda").requires_grad_(True)
    for _ in range(15):
        energy, forces = model(z, pos)
    return energy, forces


def relax(model, z, start, steps):
    model.eval()
    positions = start.clone()
    positions.requires_grad_()
    for _ in range(steps):
        energy, forces = model(z, positions=positions)
        positions = (positions + 0.01 * forces).detach().requires_grad_()
    return positions
