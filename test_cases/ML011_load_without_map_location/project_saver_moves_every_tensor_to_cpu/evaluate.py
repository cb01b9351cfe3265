# Linted as one project with saver.py: the checkpoint is one the project's saver wrote, from the CPU:
# loading it puts nothing on a GPU.
import torch


def build(model_cls, config, checkpoint_path, device):
    checkpoint = torch.load(checkpoint_path)
    model = model_cls.from_pretrained(config, state_dict=checkpoint)
    return model.to(device).eval()
