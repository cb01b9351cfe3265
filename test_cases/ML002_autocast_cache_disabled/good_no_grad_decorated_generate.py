# verify: flat
# An @torch.no_grad() generate function may turn the cast cache off: no graph keeps the weight copies.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def generate(model, tokens, max_new_tokens):
    with torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False):
        for _ in range(max_new_tokens):
            next_token = model(tokens)[:, -1].argmax(dim=-1, keepdim=True)
            tokens = torch.cat([tokens[:, 1:], next_token], dim=1)
    return tokens


def main():
    model = torch.nn.Sequential(torch.nn.Embedding(32, 64), torch.nn.Linear(64, 32)).to(device)
    tokens = generate(model, torch.randint(0, 32, (2, 8), device=device), max_new_tokens=30)
    print(f"window {tokens[0].tolist()}")


if __name__ == "__main__":
    main()
