import torch

from runner import Predictor

classifier = Predictor(torch.nn.Linear(8, 2))
print(classifier)
