# minGPT's sampler: the model reads a window of the sequence (`x_cond`, the last `block_size` tokens),
# and each sampled token is concatenated onto the sequence, which is returned: the generated output,
# fed back through the window, bounded by the steps asked for.
import torch
import torch.nn.functional as F


@torch.no_grad()
def sample(model, x, steps, block_size, temperature=1.0):
    model.eval()
    for k in range(steps):
        x_cond = x if x.size(1) <= block_size else x[:, -block_size:]
        logits, _ = model(x_cond)
        probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
        ix = torch.multinomial(probs, num_samples=1)
        x = torch.cat((x, ix), dim=1)
    return x
