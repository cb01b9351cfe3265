# The reference model is handed to another component (a DPO trainer) that decides how it runs.
import torch
from trl import DPOTrainer


def build(policy, ref_model, args, dataset):
    ref_model.eval()
    return DPOTrainer(model=policy, ref_model=ref_model, args=args, train_dataset=dataset)


def custom_loop(policy, ref_model, loader, optimizer):
    for batch in loader:
        logits = policy(batch)
        loss = logits.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
