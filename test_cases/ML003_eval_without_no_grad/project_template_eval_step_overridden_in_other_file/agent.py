# A base class's template method: `batch_act` evaluates through `self.eval_step(batch)`, which the
# class leaves to its subclasses. A subclass in another file (seq2seq.py) overrides it with a model
# run, with grad on: the call here is where one `no_grad` covers every subclass.
class Agent:
    def __init__(self, opt):
        self.opt = opt

    def batch_act(self, batch):
        if batch.labels is not None:
            output = self.train_step(batch)
        else:
            output = self.eval_step(batch)  # expect: ML003
        return output

    def train_step(self, batch):
        raise NotImplementedError

    def eval_step(self, batch):
        """Process one batch but do not train on it."""
        raise NotImplementedError("subclasses evaluate")
