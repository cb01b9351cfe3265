# Rollouts that carry a recurrent state on purpose or record no graph: one collects the log-probabilities
# of its actions with their history for a policy-gradient loss its caller backwards; one runs under
# `torch.no_grad()`; one detaches the state it carries every step (no carried graph; its forwards still
# record graphs for nothing, which is evaluation without no_grad).
import torch
from torch import nn


class Agent:
    def __init__(self, rnn: nn.Module, policy: nn.Module):
        self.rnn = rnn
        self.policy = policy

    def rollout_for_reinforce(self, env, hidden):
        log_probs, done = [], False
        observation = env.reset()
        while not done:
            hidden = self.rnn(torch.as_tensor(observation), hidden)
            dist = torch.distributions.Categorical(logits=self.policy(hidden))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            observation, reward, done, _ = env.step(action.item())
        return torch.stack(log_probs)

    @torch.no_grad()
    def evaluate(self, env, hidden):
        done, score = False, 0.0
        observation = env.reset()
        while not done:
            hidden = self.rnn(torch.as_tensor(observation), hidden)
            action = self.policy(hidden).argmax(-1)
            observation, reward, done, _ = env.step(action.item())
            score += reward
        return score

    def play(self, env, hidden):
        done, score = False, 0.0
        observation = env.reset()
        while not done:
            hidden = self.rnn(torch.as_tensor(observation), hidden).detach()  # expect: ML003
            action = self.policy(hidden).argmax(-1)  # expect: ML003
            observation, reward, done, _ = env.step(action.item())
            score += reward
        return score
