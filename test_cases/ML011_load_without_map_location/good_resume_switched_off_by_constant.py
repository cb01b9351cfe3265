# Look-alike of bad_resume_switched_by_argument.py: resuming is switched off by a constant test
# (`if 0 > 0:`), so the load never runs.
import torch


def train(model, optimizer, loader, load_epoch):
    if 0 > 0:
        model.load_state_dict(torch.load("checkpoints/model.iter-" + str(load_epoch)))
    for batch in loader:
        optimizer.zero_grad()
        model(batch.cuda()).mean().backward()
        optimizer.step()
    torch.save(model.state_dict(), "checkpoints/model.iter-" + str(load_epoch + 1))
