# The twin of good_generated_sequence_cropped_to_context.py: the model reads windows of an input it
# never changes, and the outputs of every window are concatenated on the device: nothing is fed back,
# so what piles up is each window's output.
import torch


@torch.no_grad()
def score_windows(model, tokens, steps, block_size):
    model.eval()
    scores = torch.empty(tokens.size(0), 0, device=tokens.device)
    for k in range(steps):
        window = tokens[:, k : k + block_size]
        logits, _ = model(window)
        scores = torch.cat((scores, logits[:, -1, :]), dim=1)  # expect: ML005
    return scores
