# verify: flat
# GAN loop under `import torch as T`: both backwarded losses are extended into an outer history (warning).
import torch as T
import torch.nn.functional as F

device = "cuda" if T.cuda.is_available() else "cpu"


def main():
    generator = T.nn.Sequential(T.nn.Linear(8, 16), T.nn.Tanh()).to(device)
    discriminator = T.nn.Sequential(T.nn.Linear(16, 16), T.nn.LeakyReLU(0.2), T.nn.Linear(16, 1)).to(device)
    opt_g = T.optim.Adam(generator.parameters(), lr=2e-4)
    opt_d = T.optim.Adam(discriminator.parameters(), lr=2e-4)
    ones, zeros = T.ones(16, 1, device=device), T.zeros(16, 1, device=device)
    history = []
    for step in range(20):
        fake = generator(T.randn(16, 8, device=device))
        real = T.randn(16, 16, device=device)
        d_loss = F.binary_cross_entropy_with_logits(discriminator(real), ones) + F.binary_cross_entropy_with_logits(
            discriminator(fake.detach()), zeros
        )
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = F.binary_cross_entropy_with_logits(discriminator(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        history.extend([d_loss.detach(), g_loss.detach()])  # expect: ML001
    print(f"last d={history[-2].item():.3f} g={history[-1].item():.3f}")


if __name__ == "__main__":
    main()
