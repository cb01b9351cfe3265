# An evaluator handed the generator as `net_g`: `net_g.eval()` says it is a module, and the test
# loop runs it with autograd on (FL-MRCM).
import torch
import torch.nn.functional as F


class Evaluator:
    def __init__(self, loader, device):
        self.loader = loader
        self.device = device

    @torch.no_grad()
    def evaluate_recon(self, net_g):
        net_g.eval()
        logs = []
        for source, target in self.loader:
            output = net_g(source.to(self.device))  # expect: ML003
            logs.append(F.l1_loss(output, target.to(self.device)).item())
        return sum(logs) / len(logs)
