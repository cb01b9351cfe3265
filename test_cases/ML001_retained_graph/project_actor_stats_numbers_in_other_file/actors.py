class BoxActor:
    def __init__(self, net, objective):
        self.net = net
        self.objective = objective

    def __call__(self, data):
        pred = self.net(data["images"])
        loss = self.objective(pred, data["boxes"])
        stats = {"Loss/total": loss.item(), "IoU": (pred - data["boxes"]).abs().mean().item()}
        return loss, stats
