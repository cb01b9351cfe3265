# verify: flat
# WGAN-style loop: the critic steps every iteration, the generator every `n_critic` iterations with its own zero_grad inside that branch.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(n_critic=5):
    generator = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16)).to(device)
    critic = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).to(device)
    opt_g = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
    opt_d = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    for i in range(25):
        real = torch.randn(16, 16, device=device)
        fake = generator(torch.randn(16, 8, device=device))
        opt_d.zero_grad()
        d_loss = critic(fake.detach()).mean() - critic(real).mean()
        d_loss.backward()
        opt_d.step()
        if i % n_critic == 0:
            opt_g.zero_grad()
            g_loss = -critic(fake).mean()
            g_loss.backward()
            opt_g.step()
    print(f"critic loss {d_loss.item():.3f}, generator loss {g_loss.item():.3f}")


if __name__ == "__main__":
    main()
