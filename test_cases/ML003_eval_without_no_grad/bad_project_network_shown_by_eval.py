# A network of the project (its class is in another file) under a name that says nothing: the file
# shows it is a module (`load_state_dict`, `.eval()`), and the demo loop runs its own passes with
# autograd on (CIE XYZ Net's demo).
import torch

from nets import ColorNet


if __name__ == "__main__":
    colorizer = ColorNet()
    colorizer.load_state_dict(torch.load("weights.pth", map_location="cpu"))
    colorizer.eval()
    images = [torch.rand(1, 3, 64, 64) for _ in range(4)]
    for image in images:
        local = colorizer.forward_local(image)  # expect: ML003
        rendered = colorizer.forward_global(image - local)  # expect: ML003
        print(rendered.mean().item())
