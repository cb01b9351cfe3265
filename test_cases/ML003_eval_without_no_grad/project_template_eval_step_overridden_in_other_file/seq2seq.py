import torch

from agent import Agent


class Seq2SeqAgent(Agent):
    def __init__(self, opt, model: torch.nn.Module):
        super().__init__(opt)
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters())

    def train_step(self, batch):
        loss = self.model(batch.text).sum()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def eval_step(self, batch):
        scores = self.model(batch.text)
        return scores.argmax(-1)
