# A helper of the training step runs the reference and reward models, kept in eval mode and in no
# optimizer, with grad on: the step's backward reaches their parameters through what it returns.
import torch


class PPOTrainer:
    def __init__(self, actor, ref_model, reward_model, optimizer):
        self.actor = actor
        self.ref_model = ref_model
        self.reward_model = reward_model
        self.ref_model.eval()
        self.reward_model.eval()
        self.optimizer = optimizer

    def make_experience(self, prompts):
        seqs = self.actor.generate(prompts)
        with torch.no_grad():
            ref_logits = self.ref_model(seqs)  # expect: ML019
        with torch.no_grad():
            rewards = self.reward_model(seqs)  # expect: ML019
        return seqs, ref_logits, rewards

    def train_step(self, prompts):
        seqs, ref_logits, rewards = self.make_experience(prompts)
        loss = (self.actor(seqs) - ref_logits).pow(2).mean() - rewards.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class Distiller:
    def __init__(self, student, teacher, optimizer):
        self.student, self.optimizer = student, optimizer
        self.teacher = teacher.eval()

    def targets(self, x):
        with torch.no_grad():
            logits = self.teacher(x)  # expect: ML019
        return logits.softmax(-1)

    def fit(self, loader):
        for x in loader:
            target = self.targets(x)
            loss = torch.nn.functional.kl_div(self.student(x).log_softmax(-1), target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
