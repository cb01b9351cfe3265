# verify: flat
# A recomputing Function keeps the CPU RNG state (a CPU ByteTensor), a size from its trailing *args
# (used as a size in torch.empty) and a plain handler object on ctx: none of them holds device memory.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Counter:
    def __init__(self):
        self.forwards = self.backwards = 0

    def on_forward(self):
        self.forwards += 1

    def on_backward(self):
        self.backwards += 1


class Recompute(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, *args):
        (counter, num_copies) = args[-2:]
        counter.on_forward()
        scratch = torch.empty(num_copies, *x.shape, device=x.device)
        ctx.num_copies = num_copies
        ctx.counter = counter
        ctx.cpu_rng_state = torch.get_rng_state()
        ctx.save_for_backward(x, weight, scratch)
        return torch.nn.functional.dropout(x @ weight, 0.1)

    @staticmethod
    def backward(ctx, grad_out):
        x, weight, _ = ctx.saved_tensors
        ctx.counter.on_backward()
        torch.set_rng_state(ctx.cpu_rng_state)
        with torch.enable_grad():
            x, weight = x.detach().requires_grad_(), weight.detach().requires_grad_()
            out = torch.nn.functional.dropout(x @ weight, 0.1)
        gx, gw = torch.autograd.grad(out, (x, weight), grad_out)
        return gx, gw, None, None


def main():
    weight = torch.nn.Parameter(torch.randn(16, 16, device=device) * 0.1)
    optimizer = torch.optim.SGD([weight], lr=0.01)
    counter = Counter()
    for step in range(30):
        x = torch.randn(64, 16, device=device)
        loss = Recompute.apply(x, weight, counter, 2).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item(), counter.backwards)


if __name__ == "__main__":
    main()
