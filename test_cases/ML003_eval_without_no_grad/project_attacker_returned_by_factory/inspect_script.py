# Linted as one project with attacker.py and model_utils.py. `model` is the attacker model the factory
# returns: its call makes adversarial examples by differentiating, so grad must stay on: no finding.
# `classifier` is a network the other factory returns, which only makes its mask require grad for
# explainers to use later: predicting with it with grad on records a graph for nothing.
import torch
from torchvision.models import resnet18

from model_utils import make_and_restore_model, make_classifier

model, _ = make_and_restore_model(resnet18(), resume_path="robust.pt")
model.eval()
classifier, _ = make_classifier(resnet18(), resume_path="standard.pt")
classifier.eval()

im = torch.rand(8, 3, 224, 224).cuda()
label = torch.randint(0, 1000, (8,)).cuda()
_, im_adv = model(im, label, make_adv=True, eps=0.03, steps=10)
pred = classifier(im_adv)  # expect: ML003
print((pred.argmax(1) == label).float().mean().item())
