# A PPO rollout writes each step's observation, action and log-probability into tensors allocated
# once before the loop (cleanrl's ppo.py): `obs[step] = next_obs` copies into fixed storage, so
# nothing grows with the number of steps. The `obs` of the lambda is another variable: it says
# nothing of what the buffer `obs` is.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def rollout(agent, envs, num_steps, num_envs, obs_dim):
    envs = envs.map_observations(lambda obs: obs["rgb"])
    obs = torch.zeros((num_steps, num_envs, obs_dim)).to(device)
    actions = torch.zeros((num_steps, num_envs), device=device)
    logprobs = torch.empty(num_steps, num_envs, device=device)
    next_obs = torch.Tensor(envs.reset()).to(device)
    optimizer = torch.optim.Adam(agent.parameters())
    for iteration in range(10):
        for step in range(num_steps):
            obs[step] = next_obs
            with torch.no_grad():
                action, logprob = agent(next_obs)
            actions[step], logprobs[step] = action, logprob
            next_obs = torch.Tensor(envs.step(action.cpu().numpy())).to(device)
        loss = agent.loss(obs, actions, logprobs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
