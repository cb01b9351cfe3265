# The same evaluation helper running the actor it constructed without `torch.no_grad()`: every
# step saves the actor's activations for a backward that never comes.
import torch
import torch.nn as nn


@torch.no_grad()
def evaluate(model_path, make_env, Model: nn.Module, device, eval_episodes=10):
    envs = make_env()
    actor = Model[0](envs).to(device)
    actor.load_state_dict(torch.load(model_path, map_location=device))
    actor.eval()
    obs, _ = envs.reset()
    episodic_returns = []
    while len(episodic_returns) < eval_episodes:
        actions = actor(torch.Tensor(obs).to(device))  # expect: ML003
        obs, _, _, _, infos = envs.step(actions.cpu().numpy())
        episodic_returns.append(infos.get("r", 0.0))
    return episodic_returns
