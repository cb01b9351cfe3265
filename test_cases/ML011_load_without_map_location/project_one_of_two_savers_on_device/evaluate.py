# Linted as one project with saver.py: one of the project's savers writes device tensors, and
# nothing shows which of its checkpoints this is.
import torch


def build(model_cls, config, checkpoint_path, device):
    checkpoint = torch.load(checkpoint_path)  # expect: ML011
    model = model_cls.from_pretrained(config, state_dict=checkpoint)
    return model.to(device).eval()
