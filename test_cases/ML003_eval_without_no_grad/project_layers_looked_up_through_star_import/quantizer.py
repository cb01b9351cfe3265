# Linted as one project with lookup.py. `quantize` runs every layer that `get_module_by_name` (star-imported)
# looks up over the cached inputs and feeds their outputs to the next layer; it never differentiates and
# no output leaves it. `rescale` calls what `get_scales` returns, numbers: no model.
import torch

from lookup import *


class Quantizer:
    def __init__(self, model, config):
        self.model = model
        self.config = config

    def quantize(self, cached, count):
        layers = get_module_by_name(self.model, "layers")
        for i in range(len(layers)):
            layer = layers[i].to("cuda")
            outputs = []
            for j in range(count):
                out = layer(cached[j].to("cuda"))[0].cpu()  # expect: ML003
                outputs.append(out)
            print(f"layer {i}: {max(o.abs().max().item() for o in outputs)}")
            cached = outputs

    def rescale(self, cached, count):
        scales = get_scales(self.config, count)
        kept = []
        for j in range(count):
            kept.append(torch.as_tensor(scales[j]) * cached[j])
        print(sum(k.sum().item() for k in kept))
