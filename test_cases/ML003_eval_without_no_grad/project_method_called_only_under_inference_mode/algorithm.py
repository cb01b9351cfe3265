# Linted as one project with runner.py: `act` runs the policy with grad on and keeps only its
# detached output, but its only caller, the runner's rollout, runs it under `torch.inference_mode()`
# through `self.alg`, whose class the runner declares (`alg: PPO`): no graph is recorded.
# `value_of` is called by the runner with grad on: its forward records a graph for nothing.
import torch
from torch import nn


class PPO:
    def __init__(self, actor: nn.Module, critic: nn.Module):
        self.actor = actor
        self.critic = critic
        self.optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()])

    def act(self, obs):
        return self.actor(obs).detach()

    def value_of(self, obs):
        return self.critic(obs).detach()  # expect: ML003

    def update(self, obs, returns):
        loss = (self.critic(obs) - returns).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
