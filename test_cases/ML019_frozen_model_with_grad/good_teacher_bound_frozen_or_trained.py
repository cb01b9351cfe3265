# Look-alikes of a teacher bound in eval mode: one frozen in the same chain (its forward records no
# graph), one switched back to training in its own loop, one bound to `.train()`: all stay silent.
import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, student, teacher, critic, coach, device, lr):
        self.student = student
        self.teacher = teacher.eval().requires_grad_(False).to(device)
        self.critic = critic.eval()
        self.coach = coach.train()
        self.optimizer = torch.optim.SGD(student.parameters(), lr=lr)

    def warm_up_critic(self, loader, optimizer):
        self.critic.train()
        for x, y in loader:
            F.mse_loss(self.critic(x), y).backward()
            optimizer.step()

    def fit(self, loader):
        for x, y in loader:
            soft = self.teacher(x) + self.critic(x) + self.coach(x)
            logits = self.student(x)
            loss = F.cross_entropy(logits, y) + F.kl_div(logits.log_softmax(-1), soft.softmax(-1))
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
