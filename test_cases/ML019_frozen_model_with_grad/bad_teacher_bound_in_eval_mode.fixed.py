# The teacher is bound to the result of `.eval()` (and placed), in no optimizer, and run with grad on
# in the training step: its forward records a graph that only fills `.grad`s nobody uses.
import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, student, teacher, device, lr):
        self.student = student
        self.teacher = teacher.eval().to(device)
        self.optimizer = torch.optim.SGD(student.parameters(), lr=lr)

    def fit(self, loader):
        for x, y in loader:
            with torch.no_grad():
                soft = self.teacher(x)  # expect: ML019
            logits = self.student(x)
            loss = F.cross_entropy(logits, y) + F.kl_div(logits.log_softmax(-1), soft.softmax(-1))
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
