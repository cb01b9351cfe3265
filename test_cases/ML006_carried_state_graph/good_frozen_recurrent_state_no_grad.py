# verify: flat
# Recurrent belief state is rolled forward under torch.no_grad() (frozen encoder); only the policy head is trained.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    gru = nn.GRUCell(12, 64).to(device).requires_grad_(False)
    policy = nn.Linear(64, 4).to(device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    belief = torch.zeros(32, 64, device=device)
    for step in range(40):
        obs = torch.randn(32, 12, device=device)
        with torch.no_grad():
            belief = gru(obs, belief)
        action_logits = policy(belief)
        loss = -action_logits.log_softmax(-1)[:, 0].mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
