# Linted as one project with policy.py: the trainer is handed the policy, whose class it does not show.
class Trainer:
    def __init__(self, policy, optimizer):
        self.policy, self.optimizer = policy, optimizer

    def ppo_update(self, sample):
        obs, action, adv, ret = sample
        values, log_probs, entropy = self.policy.evaluate_actions(obs, action)
        value_loss = self.value_loss(values, ret)
        loss = -(log_probs * adv).mean() + value_loss - entropy.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def value_loss(self, values, ret):
        return (values - ret).pow(2).mean()

    def log_values(self, obs):
        return self.policy.evaluate_values(obs).mean().item()
