# The same template method, whose one override in another file (seq2seq.py) evaluates under
# `@torch.no_grad()`: no graph is recorded, nothing to report.

class Agent:
    def __init__(self, opt):
        self.opt = opt

    def batch_act(self, batch):
        if batch.labels is not None:
            output = self.train_step(batch)
        else:
            output = self.eval_step(batch)
        return output

    def train_step(self, batch):
        raise NotImplementedError

    def eval_step(self, batch):
        """Process one batch but do not train on it."""
        raise NotImplementedError("subclasses evaluate")
