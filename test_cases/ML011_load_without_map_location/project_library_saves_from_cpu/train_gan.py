# Linted as one project with inference.py: this project's own checkpoint holds the generator's
# weights as they are on the GPU under "model": the load puts them back there.
import torch


def save(generator, ckpt_path):
    torch.save({"model": generator.state_dict(), "step": 0}, ckpt_path)


def load(generator, ckpt_path):
    generator.load_state_dict(torch.load(ckpt_path)["model"])  # expect: ML011
