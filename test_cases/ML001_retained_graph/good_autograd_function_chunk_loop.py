# Inside an autograd Function's forward, each chunk's loss is backwarded at once and kept only to
# be concatenated after the loop: a loop over the chunks of one tensor runs within one step.
import torch


class TiledLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, x, y, shards):
        x = x.detach().requires_grad_(True)
        outputs = []
        for x_shard, y_shard in zip(torch.chunk(x, shards), torch.chunk(y, shards)):
            with torch.enable_grad():
                output = fn(x_shard, y_shard)
                outputs.append(output)
            torch.autograd.backward(output)
        ctx.save_for_backward(x.grad.detach())
        return torch.cat([o.unsqueeze(0) for o in outputs]).mean()

    @staticmethod
    def backward(ctx, *grads):
        (x_grad,) = ctx.saved_tensors
        return None, x_grad * grads[0], None, None
