# The twin of good_inference_helper_runs_given_network.py: the helper switches the network to eval
# mode itself, so it is evaluation code, and it runs the network with grad on.
import torch


class PatchInferer:
    @torch.no_grad()
    def _run_inference(self, network, patch: torch.Tensor) -> tuple:
        network.eval()
        outputs = network(patch)  # expect: ML003
        return tuple(outputs)
