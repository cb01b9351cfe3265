# Linted as one project with penalties.py: the penalty `gradient_penalty` returns is differentiable
# (a graph of the derivative), so keeping it for every step keeps every step's graphs; the plain
# gradient norm that `input_gradient_norm` returns has none.
from penalties import gradient_penalty, input_gradient_norm


def train_critic(critic, generator, optimizer, loader):
    penalties = []
    norms = []
    for real, noise in loader:
        fake = generator(noise).detach()
        gp = gradient_penalty(critic, real, fake)
        loss = critic(fake).mean() - critic(real).mean() + 10 * gp
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        penalties.append(gp)  # expect: ML001
        norms.append(input_gradient_norm(critic, real))
    return penalties, norms
