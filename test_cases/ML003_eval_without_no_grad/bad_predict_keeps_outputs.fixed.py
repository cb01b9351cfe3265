# verify: leaks
# `predict` keeps every grad-enabled output: the graphs (and their activations) pile up on the device.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def predict(model, inputs):
    outputs = []
    for x in inputs:
        outputs.append(model(x))  # expect: ML001, ML003
    return outputs


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 4)).to(device)
    outputs = predict(model, [torch.randn(512, 16, device=device) for _ in range(20)])
    print(f"first predictions {outputs[0].argmax(dim=-1)[:8].tolist()}")


if __name__ == "__main__":
    main()
