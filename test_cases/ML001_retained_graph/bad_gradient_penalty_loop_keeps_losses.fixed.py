# A WGAN-GP critic loop differentiates its gradient penalty with `create_graph=True` and backwards its
# loss every step: it is a training loop, and the losses it appends keep their graphs for the epoch.
import torch


def train_critic(critic, optimizer, loader, device):
    losses = []
    for real, fake in loader:
        real, fake = real.to(device), fake.to(device)
        alpha = torch.rand(real.size(0), 1, device=device)
        mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        grad = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]
        penalty = ((grad.norm(2, dim=1) - 1) ** 2).mean()
        loss = critic(fake).mean() - critic(real).mean() + 10 * penalty
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())  # expect: ML001
    return losses
