# Linted as one project with quantizer.py, which star-imports these: `get_module_by_name` returns a
# submodule of the model it is handed (`named_modules()` yields modules), `get_scales` numbers.


def get_module_by_name(model, module_name):
    for name, module in model.named_modules():
        if name.startswith(module_name):
            return module


def get_scales(config, count):
    return [config.get("scale", 1.0)] * count
