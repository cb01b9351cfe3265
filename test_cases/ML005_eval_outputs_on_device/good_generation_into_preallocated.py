# Generated tokens are written into a tensor allocated once and returned; the model reads the
# previous steps' tokens (LLMs-from-scratch's generate): nothing grows across batches.
import torch


def generate(model, idx, max_new_tokens, ctx_len):
    model.eval()
    b, prompt_len = idx.shape
    generated = torch.empty(b, prompt_len + max_new_tokens, dtype=idx.dtype, device=idx.device)
    generated[:, :prompt_len] = idx
    cur_len = prompt_len
    with torch.no_grad():
        for _ in range(max_new_tokens):
            logits = model(generated[:, max(0, cur_len - ctx_len):cur_len])
            generated[:, cur_len] = logits[:, -1].argmax(dim=-1)
            cur_len += 1
    return generated
