# Look-alikes of an inference object that record no graph a backward never frees, or that train.
import torch


class Synthesizer:
    def __init__(self, model):
        self.model = model.eval()

    @torch.no_grad()
    def synthesize(self, ids):
        return self.model(ids).cpu()

    def stream(self, chunks):
        with torch.inference_mode():
            return [self.model(c).cpu() for c in chunks]


class Embedder:
    # puts the encoder in eval mode, but fine-tunes it too: a training object
    def __init__(self, encoder, lr):
        self.encoder = encoder
        self.encoder.eval()
        self.optimizer = torch.optim.Adam(encoder.parameters(), lr=lr)

    def embed(self, x):
        return self.encoder(x)

    def fit(self, x, y):
        loss = torch.nn.functional.mse_loss(self.embed(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class PerceptualLoss:
    # a frozen network in eval mode inside a loss: the gradient flows through it to the generator
    def __init__(self, vgg):
        self.vgg = vgg.eval()
        for p in self.vgg.parameters():
            p.requires_grad_(False)

    def __call__(self, fake, real):
        return torch.nn.functional.l1_loss(self.vgg(fake), self.vgg(real))


def train_generator(generator, loader, optimizer, vgg):
    criterion = PerceptualLoss(vgg)
    for z, real in loader:
        loss = criterion(generator(z), real)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Toggler:
    # switches its model back to training: not held for inference only
    def __init__(self, model):
        self.model = model.eval()

    def features(self, x):
        return self.model(x)

    def unfreeze(self):
        self.model.train()


class FrozenBackbone(torch.nn.Module):
    # a module's own frozen part runs in its forward, part of whatever step runs the module
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone = backbone.eval()
        self.head = head

    def forward(self, x):
        return self.head(self.backbone(x))

    def embed(self, x):
        return self.backbone(x)
