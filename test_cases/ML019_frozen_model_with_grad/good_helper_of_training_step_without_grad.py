# Look-alikes of a training step's helper that runs a frozen model: without grad, on inputs whose
# gradient the step needs.
import torch


class PPOTrainer:
    def __init__(self, actor, ref_model, optimizer):
        self.actor, self.ref_model, self.optimizer = actor, ref_model, optimizer
        self.ref_model.eval()

    @torch.no_grad()
    def make_experience(self, prompts):
        seqs = self.actor.generate(prompts)
        return seqs, self.ref_model(seqs)

    def perceptual(self, images):
        # the generated images carry the actor's graph: the gradient must flow through the frozen model
        return self.ref_model(images).mean()

    def train_step(self, prompts):
        seqs, ref_logits = self.make_experience(prompts)
        images = self.actor(seqs)
        loss = (images - ref_logits).pow(2).mean() + self.perceptual(images)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class FineTuner:
    # in eval mode (dropout off), but its parameters are in the optimizer built beside it: trained
    def __init__(self, encoder, lr):
        self.encoder = encoder
        self.encoder.eval()
        self.optimizer = torch.optim.Adam(encoder.parameters(), lr=lr)

    def embed(self, x):
        return self.encoder(x)

    def fit(self, x, y):
        loss = torch.nn.functional.mse_loss(self.embed(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
