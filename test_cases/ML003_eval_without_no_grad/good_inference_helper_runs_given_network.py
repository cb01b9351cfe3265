# A library helper named `_run_inference` with no loop of its own runs the network it is handed:
# its grad mode is its caller's (monai's inferers: evaluators call it under no_grad, trainers with grad).
import torch


class PatchInferer:
    def _run_inference(self, network, patch: torch.Tensor, *args, **kwargs) -> tuple:
        if self.preprocessing:
            patch = self.preprocessing(patch)
        outputs = network(patch, *args, **kwargs)
        return tuple(outputs)
