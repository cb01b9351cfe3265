# verify: leaks
# Fused cross-entropy computes the logits gradient in forward and parks it on ctx; losses are appended for logging.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class FusedCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, target):
        probs = torch.softmax(logits.float(), dim=-1)
        loss = -probs[torch.arange(len(target)), target].log().mean()
        grad = probs.clone()
        grad[torch.arange(len(target)), target] -= 1
        ctx.grad_logits = grad / len(target)  # expect: ML007
        return loss

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.grad_logits * grad_output, None


def main():
    lm_head = nn.Linear(64, 2000).to(device)
    optimizer = torch.optim.SGD(lm_head.parameters(), lr=0.1)
    losses = []
    for microbatch in range(30):
        hidden = torch.randn(256, 64, device=device)
        target = torch.randint(0, 2000, (256,), device=device)
        loss = FusedCrossEntropy.apply(lm_head(hidden), target)
        loss.backward()
        losses.append(loss.detach())  # expect: ML001
    optimizer.step()
    print("mean loss:", sum(l.item() for l in losses) / len(losses))


if __name__ == "__main__":
    main()
