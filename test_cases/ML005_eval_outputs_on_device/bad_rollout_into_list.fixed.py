# The same rollout collecting each step's device tensors in lists that the whole run keeps: every
# step adds its observation to device memory.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def rollout(agent, envs, num_steps):
    all_obs = []
    next_obs = torch.Tensor(envs.reset()).to(device)
    optimizer = torch.optim.Adam(agent.parameters())
    for iteration in range(10):
        for step in range(num_steps):
            with torch.no_grad():
                action, logprob = agent(next_obs)
            all_obs.append(next_obs.detach().cpu())  # expect: ML005
            next_obs = torch.Tensor(envs.step(action.cpu().numpy())).to(device)
        loss = agent.loss(torch.stack(all_obs[-num_steps:]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
