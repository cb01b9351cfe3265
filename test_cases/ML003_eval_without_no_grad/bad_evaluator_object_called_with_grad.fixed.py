# An evaluator object's method, called from the training loop with grad on: every evaluation
# episode records the actor's graph for a backward that never comes.
import torch


class Evaluator:
    def __init__(self, env, episodes):
        self.env, self.episodes = env, episodes

    @torch.no_grad()
    def evaluate_and_save(self, actor):
        rewards = [episode_reward(self.env, actor) for _ in range(self.episodes)]  # expect: ML003
        return sum(rewards) / len(rewards)


def episode_reward(env, actor):
    state, total, done = env.reset(), 0.0, False
    while not done:
        state, reward, done = env.step(actor(torch.as_tensor(state)))
        total += float(reward)
    return total


def train_agent(agent, env, steps):
    evaluator = Evaluator(env, episodes=4)
    for _ in range(steps):
        agent.update_net()
        evaluator.evaluate_and_save(agent.act)
