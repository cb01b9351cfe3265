# A demo loop runs the network's passes one after another with grad on: each pass builds its own
# graph (CIE_XYZ_NET issue 2); one `no_grad` around the loop fixes them all.
import torch


def render(network, images):
    network.eval()
    for image in images:
        local = network.forward_local(image)  # expect: ML003
        rendered = network.forward_global(image - local)  # expect: ML003
        refined = network.forward_local(rendered)  # expect: ML003
        print(refined.mean().item())
