# The same moving averages of Python numbers: `.item()` on each term, in both branches.
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
                term_ema = self.alpha * losses[1].item() + (1 - self.alpha) * term_ema
                flow_ema = self.alpha * losses[2].item() + (1 - self.alpha) * flow_ema
                if term_ema < 1e-3 and flow_ema < 1e-3:
                    break
            else:
                term_ema = losses[1].item()
                flow_ema = losses[2].item()
        return term_ema, flow_ema
