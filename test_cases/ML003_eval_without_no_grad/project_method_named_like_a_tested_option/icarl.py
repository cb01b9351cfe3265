# Where a value named like the method (`self.args.embed_classes`) is handed to a function, it may
# be the method, to be called anywhere: the callers are unknown, and the evaluation loop still reports.
import torch
import torch.nn.functional as F


class Icarl:
    def __init__(self, backbone, args, scheduler):
        self.backbone = backbone
        self.args = args
        self.scheduler = scheduler

    def begin_task(self, loader):
        with torch.no_grad():
            self.scheduler.register(self.args.embed_classes)
            self.embed_classes(loader)

    def embed_classes(self, loader):
        self.backbone.eval()
        embeddings = []
        for images, _ in loader:
            embeddings.append(self.backbone(images).cpu())  # expect: ML003
        self.backbone.train()
        return F.normalize(torch.cat(embeddings), dim=1)
