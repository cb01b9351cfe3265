# An epoch loop (after a teacher is put in eval mode) that calls a function of another file: its facts
# say whether it trains (it hands the loss to a callable it is handed, which backwards it), so the loop
# that calls `run_epoch` is a training loop and the one that only calls `score_epoch` evaluates with grad.
from engine import run_epoch, score_epoch


def main(model, teacher, criterion, loader, optimizer, loss_scaler, epochs):
    teacher.eval()
    print(sum(p.numel() for p in model.parameters()))
    for epoch in range(epochs):
        stats = run_epoch(model, criterion, loader, optimizer, loss_scaler)
        print(epoch, stats)
    for epoch in range(epochs):
        print(epoch, score_epoch(model, loader))  # expect: ML003
