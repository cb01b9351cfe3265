# The same `evaluate_actions`, but nothing in the file differentiates what it returns: the rollout
# scores actions with grad on and keeps only numbers.
import torch


class Policy:
    def __init__(self, actor, critic):
        self.actor, self.critic = actor, critic

    @torch.no_grad()
    def evaluate_actions(self, obs, action):
        log_probs, entropy = self.actor.evaluate_actions(obs, action)
        values = self.critic(obs)  # expect: ML003
        return values, log_probs, entropy


class Rollout:
    def __init__(self, policy):
        self.policy = policy

    def score(self, batches):
        scores = []
        for obs, action in batches:
            values, log_probs, entropy = self.policy.evaluate_actions(obs, action)
            scores.append(values.mean().item())
        return scores
