# Linted as one project with models.py: `load_reference` puts the reference model in eval mode
# there, and nothing here trains it, so its forward records a graph on every step for nothing.
# The frozen reference records none, and the critic is trained: its parameters reach the optimizer.
import torch

from models import Policy, load_frozen_reference, load_reference, load_trainable


def train(loader, path):
    policy = Policy()
    ref = load_reference(path)
    frozen = load_frozen_reference(path)
    critic = load_trainable(path)
    optimizer = torch.optim.Adam(list(policy.parameters()) + list(critic.parameters()))
    for x in loader:
        logits = policy(x)
        ref_logits = ref(x)  # expect: ML019
        frozen_logits = frozen(x)
        loss = (logits - ref_logits).pow(2).mean() + (logits - frozen_logits).pow(2).mean() + critic(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
