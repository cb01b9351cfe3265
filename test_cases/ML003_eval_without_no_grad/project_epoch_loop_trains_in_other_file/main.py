# An epoch loop (after a teacher is put in eval mode) that calls a function of another file: its facts
# say whether it trains (it hands the loss to a callable it is handed, which backwards it), so the loop
# that calls `run_epoch` is a training loop; `score_epoch` is evaluation by use in its own file (its
# loop's outputs end as numbers), reported there, where its fix covers this loop's call too.
from engine import run_epoch, score_epoch


def main(model, teacher, criterion, loader, optimizer, loss_scaler, epochs):
    teacher.eval()
    print(sum(p.numel() for p in model.parameters()))
    for epoch in range(epochs):
        stats = run_epoch(model, criterion, loader, optimizer, loss_scaler)
        print(epoch, stats)
    for epoch in range(epochs):
        print(epoch, score_epoch(model, loader))
