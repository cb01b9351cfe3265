# Named like evaluation, `evaluate_actions` is PPO's training forward: the update calls a method of
# that name and differentiates the losses built from what it returns.
import torch


class Policy:
    def __init__(self, actor, critic):
        self.actor, self.critic = actor, critic

    def evaluate_actions(self, obs, action):
        log_probs, entropy = self.actor.evaluate_actions(obs, action)
        values = self.critic(obs)
        return values, log_probs, entropy


class Trainer:
    def __init__(self, policy, optimizer):
        self.policy, self.optimizer = policy, optimizer

    def ppo_update(self, sample):
        obs, action, adv, ret = sample
        values, log_probs, entropy = self.policy.evaluate_actions(obs, action)
        loss = -(log_probs * adv).mean() + (values - ret).pow(2).mean() - entropy.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
