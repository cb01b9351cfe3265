# Linted as one project with explainers.py: the explainers take gradients, so running them with
# grad on is what they need; the smoother only runs the model, with grad on for nothing.
from explainers import CamExplainer, Saliency, Smoother


def explain(model, loader):
    model.eval()
    saliency = Saliency(model)
    cam = CamExplainer(model)
    maps = []
    for x, y in loader:
        maps.append((saliency(x).cpu().numpy(), cam(x, y).cpu().numpy()))
    return maps


def smooth(model, loader):
    model.eval()
    smoother = Smoother(model)
    return [smoother(x).argmax(-1).tolist() for x in loader]  # expect: ML003
