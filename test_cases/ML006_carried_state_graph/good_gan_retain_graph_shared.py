# verify: flat
# GAN step: retain_graph=True because two losses share one graph within the step; nothing is carried to the next step.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    netG = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 32)).to(device)
    netD = nn.Sequential(nn.Linear(32, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1)).to(device)
    opt_g = torch.optim.Adam(netG.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(netD.parameters(), lr=2e-4)
    bce = nn.BCEWithLogitsLoss()
    for step in range(30):
        real = torch.randn(32, 32, device=device)
        fake = netG(torch.randn(32, 16, device=device))
        d_fake = netD(fake)
        d_loss = bce(netD(real), torch.ones(32, 1, device=device)) + bce(d_fake, torch.zeros(32, 1, device=device))
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)  # the generator loss below reuses fake and d_fake
        opt_g.zero_grad()
        g_loss = bce(d_fake, torch.ones(32, 1, device=device))
        g_loss.backward()
        opt_g.step()
        opt_d.step()
    print("d %.3f g %.3f" % (d_loss.item(), g_loss.item()))


if __name__ == "__main__":
    main()
