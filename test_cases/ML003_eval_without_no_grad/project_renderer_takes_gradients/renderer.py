# Linted as one project with fields.py and validate.py. `Renderer.render` shades with the gradient of
# the SDF network it is handed (`sdf_network.gradient`, which differentiates in fields.py);
# `FlatRenderer.render` only runs the network it is handed. `SurfaceRenderer` builds its own SDF
# network and takes its gradient the same way.
from fields import ColorNetwork, SDFNetwork


class Renderer:
    def __init__(self, sdf_network, color_network):
        self.sdf_network = sdf_network
        self.color_network = color_network

    def render(self, rays):
        return self.render_core(rays, self.sdf_network, self.color_network)

    def render_core(self, rays, sdf_network, color_network):
        normals = sdf_network.gradient(rays)
        return color_network(rays) * normals


class FlatRenderer:
    def __init__(self, color_network):
        self.color_network = color_network

    def render(self, rays):
        return self.render_core(rays, self.color_network)

    def render_core(self, rays, color_network):
        return color_network(rays)


class SurfaceRenderer:
    def __init__(self):
        self.sdf_network = SDFNetwork()
        self.color_network = ColorNetwork()

    def render(self, rays):
        return self.color_network(rays) * self.sdf_network.gradient(rays)
