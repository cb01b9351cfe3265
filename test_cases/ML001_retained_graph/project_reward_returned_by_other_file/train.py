# Linted as one project with rewards.py: `get_reward` returns the output of the model it is handed
# (kept: a leak); `compute_loss` returns a float, whatever its name says (kept: fine).
from rewards import compute_loss, get_reward


def train(policy, loader, optimizer):
    rewards, losses = [], []
    for batch, labels in loader:
        reward = get_reward(policy, batch)
        loss = -reward.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        rewards.append(reward)  # expect: ML001
        losses.append(compute_loss(reward, labels))
    return rewards, losses
