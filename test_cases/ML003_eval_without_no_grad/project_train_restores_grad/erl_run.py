# `train_agent` switches grad back on before it returns: `valid_agent`, called after it, evaluates
# with grad on, and every episode records the actor's graph.
import torch


def episode_reward(env, actor):
    state, total, done = env.reset(), 0.0, False
    while not done:
        state, reward, done = env.step(actor(torch.as_tensor(state)))
        total += float(reward)
    return total


def train_agent(agent, env, steps):
    torch.set_grad_enabled(False)
    for _ in range(steps):
        agent.update_net(env)
    torch.set_grad_enabled(True)


def valid_agent(env, actor, times):
    for _ in range(times):
        print(episode_reward(env, actor))  # expect: ML003
