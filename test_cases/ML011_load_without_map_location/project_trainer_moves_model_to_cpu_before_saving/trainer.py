# Linted as one project with explain.py: `save_model` moves the model to the CPU in place before it
# takes its state dict, so the "net" entry holds CPU tensors (the other entries are the keys of the
# `recording` dict the training loop passes); `save_generator` moves its model back to the device
# before taking the state dict, so "gen" holds device tensors.
import os
import shutil

import torch


class Trainer:
    def __init__(self, model, device, save_dir):
        self.model = model
        self.device = device
        self.save_dir = save_dir

    def train(self, loader, optimizer, epochs):
        for epoch in range(epochs):
            for batch in loader:
                optimizer.zero_grad()
                loss = self.model(batch.to(self.device)).mean()
                loss.backward()
                optimizer.step()
            recording = {"epoch": epoch, "is_best": str(epoch == epochs - 1)}
            self.save_model(recording=recording)

    def save_model(self, recording=None):
        self.model.to("cpu")
        state = {"net": self.model.state_dict()}
        for key, value in recording.items():
            state[key] = value
        latest = os.path.join(self.save_dir, "latest.pth")
        torch.save(state, latest)
        shutil.copy(latest, os.path.join(self.save_dir, "best.pth"))
        self.model.to(self.device)

    def load_model(self):
        state_dict = torch.load(os.path.join(self.save_dir, "best.pth"))["net"]
        self.model.load_state_dict(state_dict)
        self.model.to(self.device)


class GeneratorTrainer(Trainer):
    def save_generator(self, path):
        self.model.cpu()
        self.model.to(self.device)
        torch.save({"gen": self.model.state_dict()}, path)
