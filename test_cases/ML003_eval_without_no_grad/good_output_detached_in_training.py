# A detached output that training code wants that way: a target network's values inside a step
# that differentiates, a teacher's inside a module's `forward`; an output that is returned as it
# is, whose graph the caller may want; and a helper run once with the model it is handed, whose
# grad mode is its caller's.
import torch
import torch.nn.functional as F


def train_step(online, target, optimizer, states, next_states, rewards):
    next_q = target(next_states).detach().max(1)[0]
    loss = F.mse_loss(online(states).max(1)[0], rewards + 0.99 * next_q)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


class Distiller(torch.nn.Module):
    def __init__(self, student, teacher):
        super().__init__()
        self.student, self.teacher = student, teacher

    def forward(self, x):
        soft = self.teacher(x).detach()
        return F.kl_div(self.student(x).log_softmax(-1), soft.softmax(-1), reduction="batchmean")


def embed(encoder, images):
    features = encoder(images)
    print(features.detach().norm())
    return features


def get_reward(reward_model, batch):
    return reward_model(batch).detach()
