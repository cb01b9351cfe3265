# A distillation trainer: the teacher (self.teacher) is in eval mode and out of the optimizer, called with grad.
import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, student, teacher, lr=1e-3):
        self.student = student
        self.teacher = teacher
        self.teacher.eval()
        self.optimizer = torch.optim.SGD(self.student.parameters(), lr=lr)

    def train_step(self, x, y, temperature=2.0):
        student_logits = self.student(x)
        teacher_logits = self.teacher(x)  # expect: ML019
        loss = F.cross_entropy(student_logits, y) + F.kl_div(
            F.log_softmax(student_logits / temperature, -1), F.softmax(teacher_logits / temperature, -1), reduction="batchmean"
        )
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
