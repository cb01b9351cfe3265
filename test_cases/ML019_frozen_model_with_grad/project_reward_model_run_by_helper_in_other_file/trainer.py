# Linted as one project with rewards.py: a reward model put in eval mode and in no optimizer, run
# with grad on in a training step by a helper of the other file (its summary says it runs the model
# it is handed), after a helper that only prepares it for inference (puts it in eval mode). The same
# helper under no_grad, on a critic that another helper trains, and on a judge that a helper prepares
# for fine-tuning stay silent.
import torch

from rewards import fit_reward, get_reward, prepare_for_fine_tuning, prepare_for_inference


class Trainer:
    def __init__(self, policy, reward_model, critic, judge, tokenizer, device, lr):
        self.policy = policy
        self.reward_model = reward_model
        self.reward_model.eval()
        self.reward_model = prepare_for_inference(self.reward_model, device)
        self.judge = judge.eval()
        self.judge = prepare_for_fine_tuning(self.judge, device)
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
            verdicts = get_reward(self.judge, batch, self.pad)
            fit_reward(self.critic, batch, scores, self.critic_optimizer)
            loss = -(logprobs.mean() * (scores - baseline - values.detach() - verdicts.detach())).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
