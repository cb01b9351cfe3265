# verify: flat
# The same validator with a timing decorator instead of `@smart_inference_mode()`: every forward records a graph.
import functools

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def timed(label="val"):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with torch.profiler.record_function(label):
                return fn(*args, **kwargs)

        return wrapper

    return decorate


class Validator:
    @timed()
    def __call__(self, model, val_loader):
        model.eval()
        preds = []
        with torch.no_grad():
            for x, y in val_loader:
                preds.append((model(x).argmax(dim=1) == y).float().mean().item())  # expect: ML003
        return sum(preds) / len(preds)


def main():
    model = torch.nn.Sequential(*[torch.nn.Linear(512, 512) for _ in range(4)], torch.nn.Linear(512, 4)).to(device)
    val_loader = [(torch.randn(256, 512, device=device), torch.randint(0, 4, (256,), device=device)) for _ in range(20)]
    print(f"accuracy {Validator()(model, val_loader):.2f}")


if __name__ == "__main__":
    main()
