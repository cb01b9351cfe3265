# verify: leaks
# The model returns a mapping (loss, logits on the device, a Python count); the training loop keeps
# every step's mapping. The fix keeps the count as it is and moves the tensors off the device.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(64, 1024)

    def forward(self, x):
        logits = self.net(x)
        return {"loss": logits.pow(2).mean(), "logits": logits, "rows": x.shape[0]}


def main():
    model = Model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    history = []
    for _ in range(40):
        output = model(torch.randn(512, 64, device=device))
        output["loss"].backward()
        optimizer.step()
        optimizer.zero_grad()
        history.append({k: v.detach().cpu() if isinstance(v, torch.Tensor) else v for k, v in output.items()})  # expect: ML001
    print(sum(h["rows"] for h in history), history[-1]["logits"].shape)


if __name__ == "__main__":
    main()
