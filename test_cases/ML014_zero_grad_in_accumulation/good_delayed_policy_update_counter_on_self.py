# TD3's delayed policy update: the update counter lives on `self`, and the actor's zero_grad, backward
# and step all run under `if self._n_updates % self.policy_delay == 0:` (stable-baselines3).
import torch
import torch.nn.functional as F


class TD3:
    def __init__(self, actor, critic, policy_delay=2):
        self.actor, self.critic = actor, critic
        self.actor_optimizer = torch.optim.Adam(actor.parameters())
        self.critic_optimizer = torch.optim.Adam(critic.parameters())
        self.policy_delay = policy_delay
        self._n_updates = 0

    def train(self, batches):
        for obs, target in batches:
            self._n_updates += 1
            critic_loss = F.mse_loss(self.critic(obs), target)
            self.critic_optimizer.zero_grad()
            critic_loss.backward()
            self.critic_optimizer.step()
            if self._n_updates % self.policy_delay == 0:
                actor_loss = -self.critic(self.actor(obs)).mean()
                self.actor_optimizer.zero_grad()
                actor_loss.backward()
                self.actor_optimizer.step()
