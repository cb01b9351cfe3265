# cleanrl's evaluation helpers receive the model classes in a tuple and construct them
# (`Model[0](envs).to(device)`): the file shows the result is a module (`actor.eval()`), so the
# call builds a module, it runs none. The runs are under `torch.no_grad()`.
import torch
import torch.nn as nn


def evaluate(model_path, make_env, Model: nn.Module, device, eval_episodes=10):
    envs = make_env()
    actor = Model[0](envs).to(device)
    qf = Model[1](envs).to(device)
    actor_params, qf_params = torch.load(model_path, map_location=device)
    actor.load_state_dict(actor_params)
    actor.eval()
    qf.load_state_dict(qf_params)
    qf.eval()
    obs, _ = envs.reset()
    episodic_returns = []
    while len(episodic_returns) < eval_episodes:
        with torch.no_grad():
            actions = actor(torch.Tensor(obs).to(device))
        obs, _, _, _, infos = envs.step(actions.cpu().numpy())
        episodic_returns.append(infos.get("r", 0.0))
    return episodic_returns
