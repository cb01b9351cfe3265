# A rollout with grad on: the world model's recurrent state and posterior go back into its model runs
# at the next step, and nothing differentiates (the actions are detached, the scores are floats), so
# every step's graph stays linked to the last until the episode ends.
import torch
from torch import nn


class Agent:
    def __init__(self, rssm: nn.Module, encoder: nn.Module, actor: nn.Module):
        self.rssm = rssm
        self.encoder = encoder
        self.actor = actor

    def interact(self, env, episodes):
        scores = []
        with torch.no_grad():
            for _ in range(episodes):
                posterior, deterministic = self.rssm.initial_state(1)
                action = torch.zeros(1, 4)
                embedded = self.encoder(torch.from_numpy(env.reset()).float())  # expect: ML003
                done, score = False, 0.0
                while not done:
                    deterministic = self.rssm.recurrent_model(posterior, action, deterministic)  # expect: ML006
                    _, posterior = self.rssm.representation_model(embedded, deterministic)  # expect: ML006
                    action = self.actor(posterior, deterministic).detach()  # expect: ML003
                    observation, reward, done, _ = env.step(action.cpu().numpy()[0])
                    score += reward
                    embedded = self.encoder(torch.from_numpy(observation).float())  # expect: ML006
                scores.append(score)
        return scores
