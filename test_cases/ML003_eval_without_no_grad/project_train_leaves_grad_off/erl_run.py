# `train_agent` switches grad off for the whole process (its updates enable it around their own
# backward) and never back; the tutorial calls `valid_agent` only after it: the evaluation
# episodes record no graph.
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


def valid_agent(env, actor, times):
    for _ in range(times):
        print(episode_reward(env, actor))
