# Linted as one project with distill.py: collectors whose constructors register forward hooks on the
# model they are handed; `ScopedCollector` keeps the handles and removes them in `close`.
class FeatureCollector:
    def __init__(self, model, layer_names):
        self.features = {}
        for name, module in model.named_modules():
            if name in layer_names:
                module.register_forward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output

        return hook


class ScopedCollector:
    def __init__(self, model, layer_names):
        self.features = {}
        self.handles = [
            module.register_forward_hook(self._make_hook(name))
            for name, module in model.named_modules()
            if name in layer_names
        ]

    def _make_hook(self, name):
        def hook(module, inputs, output):
            self.features[name] = output

        return hook

    def close(self):
        for handle in self.handles:
            handle.remove()
