# Linted as one project with saver.py and evaluate.py: the averaged weights are saved as they are on
# the device, under a name the model saver uses too.
import torch


def save_ema(ema_model, output_dir, step):
    torch.save(ema_model.state_dict(), f"{output_dir}/ckpt/model_step_{step}.pt")
