# TRPO's update: for each parameter of the policy, the gradient of the KL divergence is taken with
# `create_graph=True` and kept, with the parameter, for the Hessian-vector products of the conjugate
# gradient step that follows. A loop over one model's parameters is one computation within a step,
# bounded by the model's size: no finding. The same gradient kept for every batch of a loader,
# never differentiated again, still reports.
import torch
from torch import nn


class TRPO:
    def __init__(self, policy: nn.Module, rollout):
        self.policy = policy
        self.rollout = rollout

    def _compute_actor_grad(self, kl_div, objective):
        grads, flat_kl, params = [], [], []
        for name, param in self.policy.named_parameters():
            kl_grad, = torch.autograd.grad(kl_div, param, create_graph=True, retain_graph=True)
            grad, = torch.autograd.grad(objective, param, retain_graph=True)
            flat_kl.append(kl_grad.reshape(-1))
            grads.append(grad.reshape(-1))
            params.append(param)
        return params, torch.cat(grads), torch.cat(flat_kl)

    def kl_gradients(self, loader, param):
        flat_kl = []
        for batch in loader:
            kl_div = self.policy(batch).entropy().mean()
            kl_grad, = torch.autograd.grad(kl_div, param, create_graph=True)
            flat_kl.append(kl_grad.reshape(-1))  # expect: ML001
        return flat_kl

    def train(self):
        for batch in self.rollout.get(batch_size=None):
            dist = self.policy(batch.observations)
            objective = (batch.advantages * dist.log_prob(batch.actions).exp()).mean()
            kl_div = dist.entropy().mean()
            params, grad, flat_kl = self._compute_actor_grad(kl_div, objective)
            hvp = torch.autograd.grad(flat_kl @ grad.detach(), params)
            with torch.no_grad():
                for param, delta in zip(params, hvp):
                    param.add_(delta)
