# `lru_cache(maxsize=1)` on a method of a subclass whose base (in this file) stores the agents and
# their models: the cache keeps the last subclass instance and, through its base's attributes, the
# models (ParlAI PR 2487, `HogwildWorld(World)`).
import functools

import torch


class World:
    def __init__(self, agents):
        self.agents = agents

    def parley(self):
        return [agent(torch.randn(4, 16)) for agent in self.agents]


class WrappedWorld(World):
    def __init__(self, agents, name):
        super().__init__(agents)
        self.name = name

    @functools.lru_cache(maxsize=1)  # expect: ML012
    def num_examples(self):
        return len(self.name)


def main():
    world = WrappedWorld([torch.nn.Linear(16, 4)], "train")
    world.parley()
    print(world.num_examples())


if __name__ == "__main__":
    main()
