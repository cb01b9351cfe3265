# Linted as one project with base_model.py: `save_training_state` writes the optimizers' states
# from the GPU, so this load puts them back on the device they were saved from.
import torch


def resume(optimizers, state_path):
    resume_state = torch.load(state_path)  # expect: ML011
    for optimizer, state in zip(optimizers, resume_state["optimizers"]):
        optimizer.load_state_dict(state)
    return resume_state["epoch"], resume_state["iter"]
