# verify: leaks
# An activation probe built every step: its __init__ registers a forward hook on the model, never removed.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ActivationProbe:
    def __init__(self, module):
        self.activations = []
        module.register_forward_hook(self.record)

    def record(self, module, inputs, output):
        self.activations.append(output)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(64, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 64)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(30):
        probe = ActivationProbe(model[1])  # expect: ML008
        loss = model(torch.randn(256, 64, device=device)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, len(probe.activations))


if __name__ == "__main__":
    main()
