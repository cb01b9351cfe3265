# The distiller runs its teacher, held on `self.teacher_net.model`, in eval mode in every training
# step; the optimizer it steps comes from the student holder's method, which cannot reach the
# teacher's parameters: the teacher's forward records a graph for nothing.
from models.utils.continual_model import ContinualModel


class Distiller(ContinualModel):
    def __init__(self, backbone, loss, args, teacher_net):
        super().__init__(backbone, loss, args)
        self.teacher_net = teacher_net

    def begin_task(self, steps):
        self.opt, self.scheduler = self.net.get_optimizer(steps)
        self.teacher_net.model.eval()

    def observe(self, inputs, labels, not_aug_inputs, epoch=0):
        output = self.net(inputs)
        teacher_output = self.teacher_net.model(inputs)  # expect: ML019
        loss = self.loss(output, labels) + (output - teacher_output).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()
