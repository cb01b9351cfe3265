# verify: flat
# improved-diffusion's CheckpointFunction keeps the callable it re-runs on ctx, and a Megatron-style gather keeps its process group: neither is a tensor (issue 12, shape 4).
import torch
import torch.distributed as dist

device = "cuda" if torch.cuda.is_available() else "cpu"


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, length, *args):
        ctx.run_function = run_function
        ctx.save_for_backward(*args[:length])
        with torch.no_grad():
            output_tensors = ctx.run_function(*args[:length])
        return output_tensors

    @staticmethod
    def backward(ctx, *output_grads):
        inputs = [x.detach().requires_grad_(True) for x in ctx.saved_tensors]
        with torch.enable_grad():
            outputs = ctx.run_function(*inputs)
        grads = torch.autograd.grad(outputs, inputs, output_grads)
        return (None, None) + grads


class GatherFromGroup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, group, input):
        ctx.group = group
        if group is None or dist.get_world_size(group) == 1:
            return input.clone()
        parts = [torch.empty_like(input) for _ in range(dist.get_world_size(group))]
        dist.all_gather(parts, input, group=group)
        return torch.cat(parts, dim=-1)

    @staticmethod
    def backward(ctx, grad_output):
        if ctx.group is None or dist.get_world_size(ctx.group) == 1:
            return None, grad_output
        return None, grad_output.chunk(dist.get_world_size(ctx.group), dim=-1)[dist.get_rank(ctx.group)]


def main():
    block = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU()).to(device)
    optimizer = torch.optim.SGD(block.parameters(), lr=0.01)
    group = None  # dist.new_group(...) under torchrun
    for step in range(30):
        x = torch.randn(128, 64, device=device, requires_grad=True)
        h = CheckpointFunction.apply(block, 1, x)
        loss = GatherFromGroup.apply(group, h).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
