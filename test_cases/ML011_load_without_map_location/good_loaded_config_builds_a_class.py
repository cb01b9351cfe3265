# diffusion_policy's evaluation script: the checkpoint's config names the class to build, and the
# object built is run. Calling what a function computed from the load (`cls(cfg)`) says nothing of
# the load itself (no pickled model); only the file's name says it is a checkpoint, which a default
# run does not report on its own.
import hydra
import torch


def main(checkpoint, output_dir):
    payload = torch.load(open(checkpoint, "rb"))  # preview: ML011
    cfg = payload["cfg"]
    cls = hydra.utils.get_class(cfg._target_)
    workspace = cls(cfg, output_dir=output_dir)
    workspace.run()
