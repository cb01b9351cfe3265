# verify: flat
# `import torch as T`: an accelerate-style loop inside T.amp.autocast(cache_enabled=False).
from types import SimpleNamespace

import torch as T
import torch.nn.functional as F

device = "cuda" if T.cuda.is_available() else "cpu"


class Accelerator:
    def backward(self, loss):
        loss.backward()


class ToyClassifier(T.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = T.nn.Linear(16, 32)
        self.classifier = T.nn.Linear(32, 4)

    def forward(self, inputs, labels):
        logits = self.classifier(T.relu(self.encoder(inputs)))
        return SimpleNamespace(loss=F.cross_entropy(logits.float(), labels), logits=logits)


def main():
    accelerator = Accelerator()
    model = ToyClassifier().to(device)
    optimizer = T.optim.AdamW(model.parameters(), lr=1e-3)
    train_dataloader = [{"inputs": T.randn(8, 16, device=device), "labels": T.randint(0, 4, (8,), device=device)} for _ in range(20)]
    with T.amp.autocast(device_type=device, dtype=T.bfloat16, cache_enabled=True):  # expect: ML002
        for batch in train_dataloader:
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            optimizer.zero_grad()
    print("done")


if __name__ == "__main__":
    main()
