# Linted as one project with rollout.py, whose collector holds the policy on `self.policy` without
# showing its class. `get_log_probs_ref_model` runs the frozen reference model with grad on, but every
# call of that name in the project runs under `torch.no_grad()`: no graph is recorded, no finding.
# `get_values_ref_model` is also called with grad on: its run records a graph for nothing.
from torch import nn


class TextGenPolicy(nn.Module):
    def __init__(self, model: nn.Module, ref_model: nn.Module):
        super().__init__()
        self._model = model
        self._ref_model = ref_model.eval()

    def get_log_probs_ref_model(self, input_ids, action):
        output = self._ref_model(input_ids)
        return output.logits[:, -1, :].log_softmax(-1).gather(-1, action).detach()

    def get_values_ref_model(self, input_ids):
        output = self._ref_model(input_ids)  # expect: ML003
        return output.values.detach()
