# `ref.forward(...)` is the same call: the reference records a graph on every step.
import torch


def train(policy, ref, loader, optimizer, beta=0.1):
    ref.eval()
    for ids in loader:
        ref_out = ref.forward(ids)  # preview: ML019
        out = policy(ids)
        loss = out.mean() + beta * (out - ref_out).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
