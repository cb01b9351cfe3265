# The same loop shapes, collecting nothing on the device: the method under `no_grad` returns its
# result on the CPU; another returns a Python float; a third runs the model with grad (a training
# forward whose losses the caller backwards), so its loop is no inference loop.
import torch
from torch.utils.data import DataLoader


class PreferenceTrainer:
    def __init__(self, model, ref_model, dataset, optimizer):
        self.model = model
        self.ref_model = ref_model
        self.train_dataset = dataset
        self.optimizer = optimizer

    def precompute_reference(self):
        reference_logps, scores = [], []
        for padded_batch in DataLoader(self.train_dataset, batch_size=8):
            reference_logps.append(self.reference_log_probs(padded_batch))
            scores.append(self.reference_score(padded_batch))
        return torch.cat(reference_logps), scores

    def reference_log_probs(self, padded_batch):
        with torch.no_grad():
            logits = self.ref_model(padded_batch["input_ids"]).logits
        return logits.log_softmax(-1).sum(-1).cpu()

    def reference_score(self, padded_batch):
        with torch.no_grad():
            return self.ref_model(padded_batch["input_ids"]).logits.mean().item()

    def train_epoch(self):
        for padded_batch in DataLoader(self.train_dataset, batch_size=8):
            loss = self.policy_loss(padded_batch)
            loss.backward()
            self.optimizer.step()

    def policy_loss(self, padded_batch):
        return self.model(padded_batch["input_ids"]).logits.log_softmax(-1).mean()
