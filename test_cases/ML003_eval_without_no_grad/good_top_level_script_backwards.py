# A top-level script that computes a saliency map: it runs the model in eval mode and differentiates
# its output on purpose.
import numpy as np
import torch

model = torch.load("model.pt", map_location="cpu", weights_only=False)
model.eval()
image = torch.from_numpy(np.load("image.npy")).requires_grad_()
score = model(image).max()
score.backward()
np.save("saliency.npy", image.grad.abs().numpy())
