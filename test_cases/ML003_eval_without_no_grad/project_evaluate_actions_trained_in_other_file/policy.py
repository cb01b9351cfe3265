# Linted as one project with trainer.py. Named like evaluation, `evaluate_actions` is PPO's training
# forward: the trainer in the other file calls a method of that name on the policy it is handed and
# differentiates the losses built from what it returns, so no finding. `evaluate_values` is also run
# there, but the trainer keeps only numbers of it: its critic run records a graph for nothing.
from torch import nn


class Policy:
    def __init__(self, actor: nn.Module, critic: nn.Module):
        self.actor, self.critic = actor, critic

    def evaluate_actions(self, obs, action):
        log_probs, entropy = self.actor.evaluate_actions(obs, action)
        values = self.critic(obs)
        return values, log_probs, entropy

    def evaluate_values(self, obs):
        return self.critic(obs)  # expect: ML003
