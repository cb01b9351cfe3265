# TRPO's conjugate gradient: the direction `b` is handed detached (`loss_grad.data`), and the
# Fisher-vector product is the derivative of `(kl_grad * p).sum()` taken without `create_graph`:
# `p` is differentiated only as the factor beside the KL gradient, which carries the history, so
# nothing the loop keeps in `x`, `r` or `p` has a graph.
import torch


class Trainer:
    def __init__(self, actor, optimizer):
        self.actor, self.optimizer = actor, optimizer

    def flat_grad(self, grads):
        flat = []
        for grad in grads:
            flat.append(grad.view(-1))
        return torch.cat(flat)

    def fisher_vector_product(self, obs, p):
        kl = self.actor(obs).mean()
        kl_grad = self.flat_grad(torch.autograd.grad(kl, self.actor.parameters(), create_graph=True))
        kl_grad_p = (kl_grad * p).sum()
        hessian_p = self.flat_grad(torch.autograd.grad(kl_grad_p, self.actor.parameters()))
        return hessian_p + 0.1 * p

    def conjugate_gradient(self, obs, b, nsteps):
        x = torch.zeros(b.size())
        r = b.clone()
        p = b.clone()
        rdotr = torch.dot(r, r)
        for i in range(nsteps):
            avp = self.fisher_vector_product(obs, p)
            alpha = rdotr / torch.dot(p, avp)
            x += alpha * p
            r -= alpha * avp
            new_rdotr = torch.dot(r, r)
            p = r + new_rdotr / rdotr * p
            rdotr = new_rdotr
        return x

    def update(self, obs, adv):
        loss = (self.actor(obs) * adv).mean()
        loss_grad = self.flat_grad(torch.autograd.grad(loss, self.actor.parameters()))
        step = self.conjugate_gradient(obs, loss_grad.data, 10)
        return loss.item(), step
