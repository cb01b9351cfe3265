# `train_agent` switches grad off but switches it back on before it returns, so `valid_agent`,
# run after it, evaluates with grad on: each episode records the actor's graph.
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


@torch.no_grad()
def valid_agent(env, actor, times):
    for _ in range(times):
        print(episode_reward(env, actor))  # expect: ML003


def run(agent, env):
    train_agent(agent, env, steps=1000)
    valid_agent(env, agent.act, times=8)
