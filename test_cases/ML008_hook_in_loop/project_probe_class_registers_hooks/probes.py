# Linted as one project with train.py: probes whose constructors register forward hooks on the
# model they are handed.


class FeatureProbe:
    def __init__(self, model, store):
        self.store = store
        for name, module in model.named_modules():
            module.register_forward_hook(lambda m, i, o, name=name: store.setdefault(name, o.detach()))


class ClosingProbe:
    def __init__(self, model, store):
        self.handles = [
            module.register_forward_hook(lambda m, i, o, name=name: store.setdefault(name, o.detach()))
            for name, module in model.named_modules()
        ]

    def close(self):
        for handle in self.handles:
            handle.remove()
