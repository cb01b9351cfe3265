# The training script updates the metric of metrics.py on every evaluation batch of every epoch and never
# resets it: what metrics.py says of its states decides, not the name.
import torch

from metrics import PredictionAccuracy


def fit(model, optimizer, train_loader, val_loader, epochs):
    val_metric = PredictionAccuracy().cuda()
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                val_metric.update(model(x.cuda()), y.cuda())  # expect: ML020
        print(f"epoch {epoch}: val accuracy {val_metric.compute():.3f}")
