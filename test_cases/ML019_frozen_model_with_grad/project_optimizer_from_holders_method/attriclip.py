# The learner holds a prompt-tuned CLIP on `self.net.model` and runs it in eval mode (its dropout and
# norms frozen), but the optimizer it steps comes from `self.net.get_optimizer(...)`: a method of the
# object that holds the model, which builds it from the model's prompt parameters out of sight. The
# model is trained: no finding (distill.py holds the look-alike that still reports).
from models.utils.continual_model import ContinualModel


class AttriCLIP(ContinualModel):
    def __init__(self, backbone, loss, args):
        super().__init__(backbone, loss, args)

    def begin_task(self, steps):
        self.opt, self.scheduler = self.net.get_optimizer(steps)
        self.net.model.eval()

    def observe(self, inputs, labels, not_aug_inputs, epoch=0):
        output, features = self.net.model(inputs)
        loss = self.loss(output, labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def forward(self, x):
        return self.net.model(x, test=True)[0]
