# verify: flat
# The custom linear Function uses save_for_backward; the loop logs loss.item(), so nothing outlives backward.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return x @ weight.t()

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        return grad_out @ weight, grad_out.t() @ x


def main():
    weight = torch.nn.Parameter(torch.randn(64, 512, device=device) * 0.01)
    optimizer = torch.optim.SGD([weight], lr=0.01)
    losses = []
    for step in range(30):
        x = torch.randn(512, 512, device=device)
        loss = LinearFn.apply(x, weight).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print("mean loss:", sum(losses) / len(losses))


if __name__ == "__main__":
    main()
