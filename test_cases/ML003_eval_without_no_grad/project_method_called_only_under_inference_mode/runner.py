# Linted as one project with algorithm.py: the runner declares the class of `self.alg`; the factory
# that makes it is out of sight.
import torch

from algorithm import PPO
from registry import make_algorithm


class Runner:
    alg: PPO

    def __init__(self, env, cfg):
        self.env = env
        self.alg = make_algorithm(cfg)

    def learn(self, iterations, steps):
        obs = self.env.reset()
        for _ in range(iterations):
            with torch.inference_mode():
                for _ in range(steps):
                    obs = self.env.step(self.alg.act(obs))
            baseline = self.alg.value_of(obs)
            self.alg.update(obs, self.env.returns() - baseline)
