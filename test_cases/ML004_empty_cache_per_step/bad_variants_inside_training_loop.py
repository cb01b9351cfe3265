# verify: flat
# The twin of good_variants_one_after_another.py: the loop over the two networks runs inside the
# training loop, so the cache is emptied twice per step; and the step helper, called once per batch,
# empties it too.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def train_step(model, optimizer, x):
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch.cuda.empty_cache()  # expect: ML004
    return loss.item()


def main():
    actor, critic = torch.nn.Linear(16, 4).to(device), torch.nn.Linear(16, 1).to(device)
    optimizers = {actor: torch.optim.SGD(actor.parameters(), lr=0.1), critic: torch.optim.SGD(critic.parameters(), lr=0.1)}
    for step in range(20):
        x = torch.randn(8, 16, device=device)
        for net in (actor, critic):
            loss = net(x).pow(2).mean()
            optimizers[net].zero_grad()
            loss.backward()
            optimizers[net].step()
            torch.cuda.empty_cache()  # expect: ML004
        last = train_step(actor, optimizers[actor], x)
    print(f"last loss {last:.3f}")


if __name__ == "__main__":
    main()
