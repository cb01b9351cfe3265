# Linted as one project with train.py: helpers that register forward hooks on the model they are handed.


def record_activations(model, store):
    for name, module in model.named_modules():
        module.register_forward_hook(lambda m, i, o, name=name: store.setdefault(name, o.detach()))


def record_activations_handles(model, store):
    return [
        module.register_forward_hook(lambda m, i, o, name=name: store.setdefault(name, o.detach()))
        for name, module in model.named_modules()
    ]


def summarize(store):
    return {name: value.shape for name, value in store.items()}
