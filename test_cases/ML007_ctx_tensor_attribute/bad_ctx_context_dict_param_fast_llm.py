# verify: flat
# Fast-LLM PR 486 shape: the caller passes a context dict holding the batch and hidden states, and forward keeps the whole dict on ctx (issue 10).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class LossWithContext(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, context):
        ctx.context = context  # expect: ML007
        return torch.nn.functional.cross_entropy(logits, context["labels"])

    @staticmethod
    def backward(ctx, grad_output):
        logits = ctx.context["logits"]
        probs = torch.softmax(logits, dim=-1)
        probs[torch.arange(len(probs)), ctx.context["labels"]] -= 1
        return grad_output * probs / len(probs), None


def main():
    head = torch.nn.Linear(64, 16).to(device)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.01)
    for step in range(30):
        batch = torch.randn(128, 64, device=device)
        labels = torch.randint(0, 16, (128,), device=device)
        logits = head(batch)
        context = {"batch": batch, "labels": labels, "logits": logits.detach()}
        loss = LossWithContext.apply(logits, context)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
