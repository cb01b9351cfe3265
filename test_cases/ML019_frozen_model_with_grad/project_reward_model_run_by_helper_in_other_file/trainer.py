# Linted as one project with rewards.py: a reward model put in eval mode and in no optimizer, run
# with grad on in a training step by a helper of the other file (its summary says it runs the model
# it is handed). The same helper under no_grad, and on a critic that another helper trains, stay silent.
import torch

from rewards import fit_reward, get_reward


class Trainer:
    def __init__(self, policy, reward_model, critic, tokenizer, lr):
        self.policy = policy
        self.reward_model = reward_model
        self.reward_model.eval()
        self.critic = critic
        self.critic.eval()
        self.critic_optimizer = torch.optim.SGD(critic.head.parameters(), lr=lr)
        self.optimizer = torch.optim.AdamW(self.policy.parameters(), lr=lr)
        self.pad = tokenizer.pad_token_id

    def train(self, loader):
        for batch in loader:
            logprobs = self.policy(batch).log_softmax(-1)
            scores = get_reward(self.reward_model, batch, self.pad)  # expect: ML019
            with torch.no_grad():
                baseline = get_reward(self.reward_model, batch, self.pad)
            values = get_reward(self.critic, batch, self.pad)
            fit_reward(self.critic, batch, scores, self.critic_optimizer)
            loss = -(logprobs.mean() * (scores - baseline - values.detach())).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
