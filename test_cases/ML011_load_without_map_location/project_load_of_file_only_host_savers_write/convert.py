# Linted as one project with saver.py and evaluate.py: a conversion script that writes the file the
# command line names; which of the project's loads reads it, nothing shows by name.
import sys

import torch

source, target = sys.argv[1:]
weights = torch.load(source, map_location="cpu")
torch.save({k.replace("bert", "encoder"): v for k, v in weights.items()}, target)
