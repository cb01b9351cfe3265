# Linted as one project with checkpoints.py: without a `map_location` of the caller's, the
# checkpoint's tensors go back to the device they were saved from.
from checkpoints import load_any, load_checkpoint_file


def resume(model, optimizer, args):
    state = load_checkpoint_file(args.resume)  # expect: ML011
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(load_checkpoint_file(args.resume, map_location="cpu")["optimizer"])
    return load_checkpoint_file(args.best, "cpu")


def warm_start(model, args):
    model.load_state_dict(load_any(args.weights))  # expect: ML011
    model.load_state_dict(load_any(args.weights, map_location="cpu"))
