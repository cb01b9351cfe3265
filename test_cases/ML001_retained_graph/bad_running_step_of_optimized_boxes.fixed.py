# Box refinement by gradient ascent (pytracking's ATOM): each iteration's step is computed from the
# box tensor made to require grad, and the next step is computed from it, so the steps chain every
# iteration's graph. The step is read back on the device: the fix detaches it where it is.
import torch


def refine(predictor, features, boxes, steps):
    boxes = boxes.to("cuda")
    step = torch.zeros_like(boxes)
    for _ in range(steps):
        init = boxes.clone().detach()
        init.requires_grad = True
        scores = predictor(features, init)
        scores.backward(gradient=torch.ones_like(scores))
        step = (0.1 * init.grad * init[:, 2:].repeat(1, 2)).detach() + 0.5 * step  # expect: ML001
        boxes = init + step
        boxes.detach_()
    return boxes
