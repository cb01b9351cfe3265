# Linted as one project with models.py: what each method called here runs is that file's to say (`embed`
# returns the backbone's output, so what `embed_all` collects stays on the device, as for `model(x)`).
import pytorch_lightning as pl

from models import Classifier, Frozen


def score(loader):
    model = Classifier()
    model.eval()
    hits = 0
    for i, (x, y) in enumerate(loader):
        hits += (model.predict_step(x, i).argmax(-1) == y).sum().item()  # expect: ML003
    return hits


def embed_all(loader, model: Classifier):
    model.eval()
    found = []
    for x in loader:
        found.append(model.embed(x).argmax(-1))  # expect: ML003, ML005
    return found


def score_frozen(loader):
    model = Frozen()
    model.eval()
    hits = 0
    for i, (x, y) in enumerate(loader):
        hits += (model.predict_step(x, i).argmax(-1) == y).sum().item()
    return hits


def fine_tune(loader, model: Classifier, optimizer):
    for x, y in loader:
        loss = (model.embed(x) - y).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def predict(loader):
    # Lightning's predict loop runs every `predict_step` without grad
    return pl.Trainer().predict(Classifier(), loader)
