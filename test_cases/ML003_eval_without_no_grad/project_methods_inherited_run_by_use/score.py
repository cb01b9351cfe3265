# Linted as one project with nets.py, heads.py and steps.py. Each loop runs a model through a method
# that the object's class inherits from a base in another file; a loop that never differentiates and
# whose outputs end as numbers or detached copies evaluates, whatever its names. steps.py's `update`
# differentiates: the loop and the ignite process function that call it train.
from ignite.engine import Engine

from heads import QuietPredictor, TextNet, TextPredictor
from steps import update


def labels(loader):
    net = TextNet()
    for x in loader:
        print(net.score(x).argmax(-1).tolist())  # expect: ML003


def arrays(loader):
    predictor = TextPredictor()
    found = []
    for x in loader:
        found.append(predictor.apply(x).detach().cpu().numpy())  # expect: ML003
    return found


def embeddings(loader):
    net = TextNet()
    for x in loader:
        print(net.embed(x).argmax(-1).tolist())


def quiet(loader):
    predictor = QuietPredictor()
    for x in loader:
        print(predictor.apply(x).argmax(-1).tolist())
    for x in loader:
        print(predictor.apply_quietly(x).argmax(-1).tolist())


def fit(loader, optimizer):
    net = TextNet()
    for x, y in loader:
        loss = (net.score(x) - y).pow(2).mean()
        update(loss, optimizer)
        print(loss.item())



def make_trainer(optimizer):
    net = TextNet()

    def process(engine, batch):
        x, y = batch
        loss = (net(x) - y).pow(2).mean()
        update(loss, optimizer)
        return loss.item()

    return Engine(process)
