# verify: flat
# A factory returns an evaluation closure; the only function that calls it runs it under `no_grad` (issue 12, shape 3).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def make_eval(model):
    def eval_wrapper(x):
        return model(x)

    return eval_wrapper


def run_eval(fn, val_loader):
    total = 0.0
    for x, y in val_loader:
        with torch.no_grad():
            total += (fn(x).argmax(dim=1) == y).float().mean().item()
    return total / len(val_loader)


def main():
    model = torch.nn.Sequential(*[torch.nn.Linear(512, 512) for _ in range(4)], torch.nn.Linear(512, 4)).to(device)
    model.eval()
    val_loader = [(torch.randn(256, 512, device=device), torch.randint(0, 4, (256,), device=device)) for _ in range(20)]
    fn = make_eval(model)
    print(f"accuracy {run_eval(fn, val_loader):.2f}")


if __name__ == "__main__":
    main()
