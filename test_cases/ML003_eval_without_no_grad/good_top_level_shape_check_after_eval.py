# A tutorial's top level prints the output shape after `model.eval()`: the output is not kept, so its
# graph is freed with it.
import torch

model = torch.nn.Linear(8, 2)
model.eval()
x = torch.randn(4, 8)
print("prediction shape in inference:", model(x).size())
