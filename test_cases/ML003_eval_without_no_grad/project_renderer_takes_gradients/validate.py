# Linted as one project with fields.py and renderer.py. Each loop renders images for validation and
# keeps only detached copies, never differentiating. Where the renderer is built with the SDF network,
# rendering takes its gradient (fields.py), which needs grad on: no finding. Where it is built with a
# network that never differentiates, the loop records graphs that nothing reads.
from fields import ColorNetwork, SDFNetwork
from renderer import FlatRenderer, Renderer, SurfaceRenderer


def validate_images(rays_batches):
    renderer = Renderer(SDFNetwork(), ColorNetwork())
    images = []
    for rays in rays_batches:
        images.append(renderer.render(rays).detach().cpu().numpy())
    return images


def validate_shaded(rays_batches, device):
    sdf_network = SDFNetwork().to(device)
    renderer = Renderer(sdf_network, ColorNetwork().to(device))
    images = []
    for rays in rays_batches:
        images.append(renderer.render(rays).detach().cpu().numpy())
    return images


def validate_surfaces(rays_batches):
    renderer = SurfaceRenderer()
    images = []
    for rays in rays_batches:
        images.append(renderer.render(rays).detach().cpu().numpy())
    return images


def preview_images(rays_batches):
    renderer = FlatRenderer(ColorNetwork())
    images = []
    for rays in rays_batches:
        images.append(renderer.render(rays).detach().cpu().numpy())  # expect: ML003
    return images
