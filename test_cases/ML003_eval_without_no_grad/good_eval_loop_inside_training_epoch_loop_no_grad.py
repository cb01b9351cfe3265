# The same epoch loop; its evaluation loop runs under `torch.no_grad()`.
import torch


def train(model, optimizer, train_loader, eval_loader, epochs):
    model.eval()
    for epoch in range(epochs):
        model.train()
        for batch in train_loader:
            loss = model(batch).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        accuracies = []
        with torch.no_grad():
            for batch in eval_loader:
                scores = model(batch)
                accuracies.append(scores.argmax(-1).float().mean().item())
        print(epoch, sum(accuracies) / len(accuracies))
