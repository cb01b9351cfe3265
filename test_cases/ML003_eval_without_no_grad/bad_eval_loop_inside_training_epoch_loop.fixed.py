# Each epoch trains, then evaluates the draft model in a loop of its own with grad on (SpecForge PR 237):
# the epoch loop trains, the evaluation loop inside it is the region to wrap.
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
                scores = model(batch)  # expect: ML003
                accuracies.append(scores.argmax(-1).float().mean().item())
        print(epoch, sum(accuracies) / len(accuracies))
