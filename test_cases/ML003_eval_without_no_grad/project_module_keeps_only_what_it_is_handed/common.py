# Linted as one project with records.py, reducers.py and test_reducers.py: a setting of the
# package and a helper of its modules.
import torch

COLLECT_STATS = False


def default_device():
    return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
