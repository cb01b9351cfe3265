# Linted as one project with saver.py: the project's checkpoints hold the tensors on the device they
# were saved from, and this load puts them back there.
import torch


def build(model_cls, config, checkpoint_path, device):
    checkpoint = torch.load(checkpoint_path)  # expect: ML011
    model = model_cls.from_pretrained(config, state_dict=checkpoint)
    return model.to(device).eval()
