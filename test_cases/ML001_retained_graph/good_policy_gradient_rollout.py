# verify: flat
# REINFORCE: per-step log-probs are collected, then reduced into the loss that is backwarded after the rollout.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    policy = torch.nn.Sequential(torch.nn.Linear(4, 32), torch.nn.Tanh(), torch.nn.Linear(32, 2)).to(device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(10):
        log_probs, rewards = [], []
        state = torch.randn(4, device=device)
        for t in range(20):
            dist = torch.distributions.Categorical(logits=policy(state))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            rewards.append(float(action.item() == 0))
            state = torch.randn(4, device=device)
        returns = torch.tensor(rewards, device=device).flip(0).cumsum(0).flip(0)
        loss = -(torch.stack(log_probs) * returns).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last episode return {sum(rewards):.0f}")


if __name__ == "__main__":
    main()
