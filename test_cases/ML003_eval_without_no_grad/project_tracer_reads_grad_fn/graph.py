# Linted as one project with prune.py, which hands both tracers a model in eval mode. `Graph`
# maps a model's layers by the `grad_fn` of their outputs (a pruning library's dependency graph):
# it runs the model with grad on because it reads the autograd graph the run records, in a forward
# hook it registers. No finding. `Shapes` runs it the same way but reads no graph: grad on for nothing.
from torch import nn


class Graph:
    def build(self, model, example_inputs):
        self.layers = self._trace(model, example_inputs)
        return self

    def _trace(self, model, example_inputs):
        model.eval()
        layers = {}

        def record(module, inputs, outputs):
            layers[outputs.grad_fn] = module

        hooks = [m.register_forward_hook(record) for m in model.modules() if isinstance(m, nn.Conv2d)]
        out = model(example_inputs)
        for hook in hooks:
            hook.remove()
        return layers


class Shapes:
    def collect(self, model, example_inputs):
        self.shapes = self._shapes(model, example_inputs)
        return self

    def _shapes(self, model, example_inputs):
        model.eval()
        shapes = {}

        def record(module, inputs, outputs):
            shapes[module] = tuple(outputs.shape)

        hooks = [m.register_forward_hook(record) for m in model.modules() if isinstance(m, nn.Conv2d)]
        out = model(example_inputs)  # expect: ML003
        for hook in hooks:
            hook.remove()
        return shapes
