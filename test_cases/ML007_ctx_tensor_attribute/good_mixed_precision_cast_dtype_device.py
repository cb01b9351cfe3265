# verify: flat
# A cast Function keeps only the input dtype, device, numel and batch size on ctx (Fast-LLM after the fix).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class CastToFloat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.input_dtype = x.dtype
        ctx.input_device = x.device
        ctx.numel = x.numel()
        ctx.batch = x.size(0)
        return x.float()

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out.to(dtype=ctx.input_dtype, device=ctx.input_device)


def main():
    layer = torch.nn.Linear(64, 64).to(device=device, dtype=torch.bfloat16)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
    loss_sum = 0.0
    for step in range(30):
        out = CastToFloat.apply(layer(torch.randn(128, 64, device=device, dtype=torch.bfloat16)))
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.item()
    print("mean loss:", loss_sum / 30)


if __name__ == "__main__":
    main()
