# Decoding loops that want their graphs, or record none: the sampled tokens' log-probabilities are
# collected with their history and returned for a policy-gradient loss; a scheduled-sampling step
# backwards the loss of the tokens it decodes; a generation loop under `no_grad`; a decoder's
# `forward` that feeds each step's output to the next.
import torch
from torch import nn


class Sampler:
    def __init__(self, policy: nn.Module):
        self.policy = policy

    def sample_with_log_probs(self, prompt, steps):
        tokens, log_probs = [prompt], []
        for _ in range(steps):
            logits = self.policy(torch.stack(tokens, dim=-1))
            dist = torch.distributions.Categorical(logits=logits[:, -1])
            token = dist.sample()
            log_probs.append(dist.log_prob(token))
            tokens.append(token)
        return tokens, torch.stack(log_probs)

    def scheduled_sampling_step(self, prompt, targets, optimizer):
        token, loss = prompt, 0.0
        for step in range(targets.shape[1]):
            logits = self.policy(token)
            loss = loss + nn.functional.cross_entropy(logits, targets[:, step])
            token = int(logits.argmax(-1)[0])
        loss.backward()
        optimizer.step()

    @torch.no_grad()
    def greedy(self, prompt, steps):
        token, out = prompt, []
        for _ in range(steps):
            logits = self.policy(token)
            token = int(logits.argmax(-1)[0])
            out.append(token)
        return out


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(16, 16)

    def forward(self, x, steps):
        h = x
        outputs = []
        for _ in range(steps):
            h = self.cell(x, h)
            outputs.append(h.argmax(-1))
        return outputs
