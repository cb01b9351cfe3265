# The teacher is put in eval mode and run under no_grad; the student runs with autograd on because
# the caller backwards the loss this helper returns.
import torch
import torch.nn.functional as F


def distillation_loss(student, teacher, x, temperature=2.0):
    teacher.eval()
    with torch.no_grad():
        target = F.softmax(teacher(x) / temperature, dim=-1)
    return F.kl_div(F.log_softmax(student(x) / temperature, dim=-1), target, reduction="batchmean")


def train(student, teacher, batches, optimizer):
    for x in batches:
        loss = distillation_loss(student, teacher, x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
