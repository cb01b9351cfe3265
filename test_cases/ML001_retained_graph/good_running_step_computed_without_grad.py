# The same refinement computes its step under no_grad: the step is a plain tensor, nothing chains.
import torch


def refine(predictor, features, boxes, steps):
    boxes = boxes.to("cuda")
    step = torch.zeros_like(boxes)
    for _ in range(steps):
        init = boxes.clone().detach()
        init.requires_grad = True
        scores = predictor(features, init)
        scores.backward(gradient=torch.ones_like(scores))
        with torch.no_grad():
            step = 0.1 * init.grad * init[:, 2:].repeat(1, 2) + 0.5 * step
        boxes = init + step
    return boxes
