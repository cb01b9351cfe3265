# A Kalman filter state runs the dynamic model it was handed at construction once in its
# `predict` step (pyro's EKFState): no loop and no switch to eval mode, so the grad mode is the
# caller's (a differentiable tracking model wants gradients through it). `.parameters()` shows
# the attribute is a module.
import torch


class FilterState:
    def __init__(self, dynamic_model, mean, cov):
        self._dynamic_model = dynamic_model
        self._mean = mean
        self._cov = cov

    def parameters(self):
        return self._dynamic_model.parameters()

    def predict(self, dt=None, destination_time=None):
        pred_mean = self._dynamic_model(self._mean, dt)
        jacobian = self._dynamic_model.jacobian(dt)
        pred_cov = jacobian.mm(self._cov).mm(jacobian.transpose(-1, -2))
        return FilterState(self._dynamic_model, pred_mean, pred_cov)
