import torch

from actors import BoxActor
from trainer import Trainer


def run(loader):
    net = torch.nn.Linear(16, 4)
    actor = BoxActor(net=net, objective=torch.nn.MSELoss())
    optimizer = torch.optim.Adam(net.parameters())
    trainer = Trainer(actor, loader, optimizer)
    for _ in range(10):
        trainer.train_epoch()
