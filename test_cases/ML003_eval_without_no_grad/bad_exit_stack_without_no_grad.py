# verify: leaks
# The same ExitStack without `enter_context(torch.no_grad())`: every forward records a graph that the kept outputs hold (bad twin of issue 12, shape 2).
from contextlib import ExitStack, contextmanager

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@contextmanager
def inference_context(model):
    training_mode = model.training
    model.eval()
    yield
    model.train(training_mode)


class Evaluator:
    def __init__(self):
        self.predictions = []

    def process(self, inputs, outputs):
        self.predictions.append(outputs.cpu())

    def evaluate(self):
        return torch.cat(self.predictions).argmax(dim=1).float().mean().item()


def inference_on_dataset(model, data_loader, evaluator):
    with ExitStack() as stack:
        if isinstance(model, torch.nn.Module):
            stack.enter_context(inference_context(model))
        for inputs in data_loader:
            outputs = model(inputs)  # expect: ML003
            evaluator.process(inputs, outputs)
    return evaluator.evaluate()


def main():
    model = torch.nn.Sequential(*[torch.nn.Linear(512, 512) for _ in range(4)], torch.nn.Linear(512, 4)).to(device)
    data_loader = [torch.randn(256, 512, device=device) for _ in range(20)]
    print(f"mean class {inference_on_dataset(model, data_loader, Evaluator()):.2f}")


if __name__ == "__main__":
    main()
