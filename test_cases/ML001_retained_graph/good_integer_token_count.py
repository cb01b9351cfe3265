# The step returns (output, num_tokens); the counts are summed into an integer tensor, which can
# never require grad (Megatron's forward_backward_no_pipelining), and the backward's divisor `n`
# is a count, not a differentiated value.
import torch


def forward_step(model, data_iterator, loss_func):
    output_tensor = model(next(data_iterator))
    output_tensor, num_tokens, _ = loss_func(output_tensor)
    return output_tensor, num_tokens


def train(model, data_iterator, loss_func, steps, n):
    total_num_tokens = torch.zeros([], dtype=torch.int, device="cuda")
    samples = 0
    for _ in range(steps):
        output_tensor, num_tokens = forward_step(model, data_iterator, loss_func)
        total_num_tokens += num_tokens
        (output_tensor / n).backward()
        samples += 4 * n
    return total_num_tokens, samples
