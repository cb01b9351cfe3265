# The same demo under `torch.no_grad()`; `colorizer.load_state_dict` and `.to` place the network,
# they run nothing.
import torch

from nets import ColorNet


if __name__ == "__main__":
    colorizer = ColorNet()
    colorizer.load_state_dict(torch.load("weights.pth", map_location="cpu"))
    colorizer.eval()
    images = [torch.rand(1, 3, 64, 64) for _ in range(4)]
    with torch.no_grad():
        for image in images:
            local = colorizer.forward_local(image)
            rendered = colorizer.forward_global(image - local)
            print(rendered.mean().item())
