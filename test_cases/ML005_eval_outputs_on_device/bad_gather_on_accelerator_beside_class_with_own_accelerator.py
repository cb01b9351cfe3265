# An inference loop collects what accelerate's `gather_for_metrics` hands back (the same device tensor)
# into a list that outlives it. Another class of the file keeps something else on an attribute of
# the same name, `self.accelerator`: that is its own object, and says nothing of the trainer's.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


class PreferenceTrainer:
    def __init__(self, ref_model, dataset):
        self.ref_model = ref_model
        self.accelerator = Accelerator()
        self.train_dataset = dataset

    def precompute_reference(self):
        data_loader = self.accelerator.prepare(DataLoader(self.train_dataset, batch_size=8))
        reference_logps = []
        for padded_batch in data_loader:
            reference_logp = self.compute_reference_log_probs(padded_batch)
            reference_logp = self.accelerator.gather_for_metrics(reference_logp)
            reference_logps.append(reference_logp)  # expect: ML005
        return torch.cat(reference_logps).cpu().numpy()

    def compute_reference_log_probs(self, padded_batch):
        with torch.no_grad():
            logits = self.ref_model(padded_batch["input_ids"]).logits
        return logits.log_softmax(-1).sum(-1)


class ReportWriter:
    def __init__(self, settings):
        self.accelerator = settings.accelerator
