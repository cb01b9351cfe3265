# A reference model kept in eval mode for a KL penalty, called with grad: backward fills its .grad
# and every forward saves its activations (under no_grad it would save nothing).
import copy

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    policy = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 256)).to(device)
    ref_model = copy.deepcopy(policy)
    ref_model.eval()
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-4)
    for step in range(30):
        x = torch.randn(64, 256, device=device)
        logits = policy(x)
        ref_logits = ref_model(x)  # expect: ML019
        kl = (logits.log_softmax(-1).exp() * (logits.log_softmax(-1) - ref_logits.log_softmax(-1))).sum(-1).mean()
        loss = logits.pow(2).mean() + 0.1 * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
