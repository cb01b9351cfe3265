# Checkpoints saved from the CPU, read back under tests that only names make rank tests. `rank` here
# counts the checkpoints of a sweep (`enumerate`), so the first is read on every process, whatever was
# saved last: the finding stands. `args.rank` is filled where this file does not show: it is a rank by
# its name alone, so that load rests on an assumption and is shown with `--preview`.
import torch


def save(model, path):
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, path)


def save_for_inference(model, path):
    torch.save(model.state_dict(), path)


def best_of_sweep(model, paths):
    for rank, path in enumerate(paths):
        if rank == 0:
            model.load_state_dict(torch.load(path, map_location="cpu"))  # expect: ML011


def restore(model, path, args):
    if args.rank == 0:
        model.load_state_dict(torch.load(path, map_location="cpu"))  # preview: ML011
