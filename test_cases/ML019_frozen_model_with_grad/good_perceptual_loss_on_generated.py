# A frozen VGG scores the generator's output: the gradient must flow through it to the generator.
import torch
import torchvision


def train(generator, loader, optimizer):
    vgg = torchvision.models.vgg16(weights="DEFAULT").features[:16]
    vgg.eval()
    for noise, target in loader:
        fake = generator(noise)
        features = vgg(fake)
        loss = torch.nn.functional.mse_loss(features, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
