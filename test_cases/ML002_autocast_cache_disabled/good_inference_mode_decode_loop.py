# verify: flat
# A decode loop with the cast cache off under inference_mode: nothing is saved for backward.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Embedding(32, 64), torch.nn.Linear(64, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
    model = model.to(device)
    tokens = torch.randint(0, 32, (2, 8), device=device)
    with torch.inference_mode(), torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False):
        for _ in range(30):
            next_token = model(tokens)[:, -1].argmax(dim=-1, keepdim=True)
            tokens = torch.cat([tokens[:, 1:], next_token], dim=1)
    print(f"window {tokens[0].tolist()}")


if __name__ == "__main__":
    main()
