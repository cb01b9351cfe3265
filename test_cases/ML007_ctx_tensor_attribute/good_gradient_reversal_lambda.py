# verify: flat
# Domain-adaptation gradient reversal layer: only the Python float ctx.lambd is kept on ctx.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd, None


def main():
    features = nn.Sequential(nn.Linear(20, 64), nn.ReLU()).to(device)
    domain_head = nn.Linear(64, 2).to(device)
    optimizer = torch.optim.SGD([*features.parameters(), *domain_head.parameters()], lr=0.01)
    for step in range(30):
        x, domain = torch.randn(64, 20, device=device), torch.randint(0, 2, (64,), device=device)
        logits = domain_head(GradReverse.apply(features(x), 0.5))
        loss = nn.functional.cross_entropy(logits, domain)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("domain loss:", loss.item())


if __name__ == "__main__":
    main()
