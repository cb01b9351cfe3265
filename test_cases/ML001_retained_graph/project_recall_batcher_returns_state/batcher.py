# Linted as one project with train.py: `Batcher.next_batch` returns the recurrent state it has just
# computed with the model (history and all); `DetachingBatcher.next_batch` returns it detached.
class Batcher:
    def __init__(self, model):
        self.model = model
        self.state = None

    def next_batch(self, x):
        out, self.state = self.model(x, self.state)
        return out, self.state


class DetachingBatcher:
    def __init__(self, model):
        self.model = model
        self.state = None

    def next_batch(self, x):
        out, state = self.model(x, self.state)
        self.state = state.detach()
        return out, self.state
