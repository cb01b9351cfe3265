# verify: flat
# A hand-written attention Function assigns q, k, v to ctx attributes in one tuple assignment.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, scale):
        probs = torch.softmax(q @ k.transpose(-1, -2) * scale, dim=-1)
        ctx.q, ctx.k, ctx.v = q, k, v  # expect: ML007
        ctx.scale = scale
        ctx.save_for_backward(probs)
        return probs @ v

    @staticmethod
    def backward(ctx, grad_out):
        (probs,) = ctx.saved_tensors
        grad_v = probs.transpose(-1, -2) @ grad_out
        grad_p = grad_out @ ctx.v.transpose(-1, -2)
        grad_s = probs * (grad_p - (grad_p * probs).sum(-1, keepdim=True)) * ctx.scale
        return grad_s @ ctx.k, grad_s.transpose(-1, -2) @ ctx.q, grad_v, None


def main():
    qkv = torch.nn.Linear(32, 96).to(device)
    optimizer = torch.optim.SGD(qkv.parameters(), lr=0.01)
    for step in range(30):
        q, k, v = qkv(torch.randn(4, 16, 32, device=device)).chunk(3, dim=-1)
        loss = Attention.apply(q, k, v, 32**-0.5).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
