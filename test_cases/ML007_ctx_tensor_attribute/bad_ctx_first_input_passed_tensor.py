# verify: flat
# Look-alike of the checkpoint/process-group case: the first input stored on ctx is never called, and `.apply` passes it a tensor (bad twin of issue 12, shape 4).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ScaleByGate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, gate, x):
        ctx.gate = gate  # expect: ML007
        return x * gate

    @staticmethod
    def backward(ctx, grad_output):
        return None, grad_output * ctx.gate


def main():
    proj = torch.nn.Linear(64, 64).to(device)
    optimizer = torch.optim.SGD(proj.parameters(), lr=0.01)
    for step in range(30):
        x = torch.randn(128, 64, device=device)
        gate = torch.rand(128, 64, device=device)
        loss = ScaleByGate.apply(gate, proj(x)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
