# An inference script at the top level: the model, put in eval mode, runs with grad on and its output
# only goes to NumPy; each call's graph is a waste.
import numpy as np
import torch

model = torch.load("model.pt", map_location="cpu", weights_only=False)
model.eval()
image = torch.from_numpy(np.load("image.npy"))
mask = model(image)  # expect: ML003
np.save("mask.npy", mask.cpu().numpy())
