# A method of the class returns its loss terms as a tuple; the training loop keeps a moving average
# of two terms for early stopping, seeded on the first iteration (`else:` branch) and updated on the
# others, all with their graphs: each step's graph is linked to the next (gflownet PR 133).
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, alpha=0.5):
        self.model = model
        self.alpha = alpha
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def terms(self, x, y):
        out = self.model(x)
        term, flow = F.mse_loss(out, y), F.l1_loss(out, y)
        return (term + flow, term, flow), out.detach()

    def train(self, batches):
        term_ema = flow_ema = None
        for x, y in batches:
            losses, outputs = self.terms(x, y)
            losses[0].backward()
            self.opt.step()
            self.opt.zero_grad()
            if term_ema is not None and flow_ema is not None:
                term_ema = self.alpha * losses[1] + (1 - self.alpha) * term_ema  # expect: ML001
                flow_ema = self.alpha * losses[2] + (1 - self.alpha) * flow_ema  # expect: ML001
                if term_ema < 1e-3 and flow_ema < 1e-3:
                    break
            else:
                term_ema = losses[1]  # expect: ML001
                flow_ema = losses[2]  # expect: ML001
        return term_ema, flow_ema
