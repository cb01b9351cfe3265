# An evaluation function builds its networks from classes it is handed (`Model[0](envs)`) and runs
# the actor under no_grad: building a module is no forward pass.
import torch


def evaluate(model_path, envs, Model, device, episodes):
    actor = Model[0](envs).to(device)
    critic = Model[1](envs).to(device)
    actor_params, critic_params = torch.load(model_path, map_location=device)
    actor.load_state_dict(actor_params)
    critic.load_state_dict(critic_params)
    actor.eval()
    critic.eval()
    obs = envs.reset()
    returns = []
    for _ in range(episodes):
        with torch.no_grad():
            actions = actor(torch.as_tensor(obs, device=device))
        obs, reward = envs.step(actions.cpu().numpy())
        returns.append(float(reward))
    return returns
