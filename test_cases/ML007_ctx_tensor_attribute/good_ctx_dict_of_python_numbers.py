# verify: flat
# The Fast-LLM shape with a context dict of Python numbers (label smoothing, loss scale): nothing on ctx is a tensor (issue 10).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class LossWithContext(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, labels, context):
        ctx.context = context
        ctx.save_for_backward(logits, labels)
        return torch.nn.functional.cross_entropy(logits, labels, label_smoothing=context["smoothing"]) * context["scale"]

    @staticmethod
    def backward(ctx, grad_output):
        logits, labels = ctx.saved_tensors
        probs = torch.softmax(logits, dim=-1)
        probs[torch.arange(len(probs)), labels] -= 1
        return grad_output * ctx.context["scale"] * probs / len(probs), None, None


def main():
    head = torch.nn.Linear(64, 16).to(device)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.01)
    for step in range(30):
        batch = torch.randn(128, 64, device=device)
        labels = torch.randint(0, 16, (128,), device=device)
        logits = head(batch)
        context = {"smoothing": 0.0, "scale": 1.0 / 4}
        loss = LossWithContext.apply(logits, labels, context)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
