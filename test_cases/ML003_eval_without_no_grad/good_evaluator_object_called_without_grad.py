# The evaluator's method is called only by `train_agent`, which switches grad off for the whole
# process first (`torch.set_grad_enabled(False)`; its updates enable grad around their own backward):
# the evaluation records no graph. A `valid_agent` run after `train_agent` in the same process
# inherits the mode `train_agent` leaves set.
import torch


class Evaluator:
    def __init__(self, env, episodes):
        self.env, self.episodes = env, episodes

    def evaluate_and_save(self, actor):
        rewards = [episode_reward(self.env, actor) for _ in range(self.episodes)]
        return sum(rewards) / len(rewards)


def episode_reward(env, actor):
    state, total, done = env.reset(), 0.0, False
    while not done:
        state, reward, done = env.step(actor(torch.as_tensor(state)))
        total += float(reward)
    return total


def train_agent(agent, env, steps):
    torch.set_grad_enabled(False)
    evaluator = Evaluator(env, episodes=4)
    for _ in range(steps):
        agent.update_net()
        evaluator.evaluate_and_save(agent.act)


def valid_agent(env, actor, times):
    for _ in range(times):
        print(episode_reward(env, actor))


def run(agent, env):
    train_agent(agent, env, steps=1000)
    valid_agent(env, agent.act, times=8)
