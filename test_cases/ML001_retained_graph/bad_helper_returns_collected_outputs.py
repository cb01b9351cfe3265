import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def forward_chunks(self, model, chunks):
        # every chunk's output is collected with its graph: what `torch.cat` joins of them has it too
        outs = []
        for chunk in chunks:
            outs.append(model(chunk))
        return torch.cat(outs)

    def forward_floats(self, model, chunks):
        # a look-alike that collects numbers: nothing it returns has history
        outs = []
        with torch.no_grad():
            for chunk in chunks:
                outs.append(model(chunk).sum().item())
        return torch.tensor(outs)

    def train(self, loader):
        kept = []
        for batch in loader:
            logits = self.forward_chunks(self.model, batch)
            loss = logits.logsumexp(-1).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            kept.append(logits)  # expect: ML001
        return kept

    def train_floats(self, loader):
        kept = []
        for batch in loader:
            scores = self.forward_floats(self.model, batch)
            kept.append(scores)
        return kept
