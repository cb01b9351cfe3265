# A helper of the file hands the step's loss to the engine's backward (`engine.backward(loss)`), but the
# loop keeps another value with history, the critic's score, which nothing differentiates: every step's
# critic graph stays on the device.
import torch


def backward_step(engine, loss):
    engine.backward(loss)
    engine.step()


def train(engine, critic, loader):
    scores = []
    for x, y in loader:
        loss = engine(x, y).mean()
        score = critic(x).mean()
        backward_step(engine, loss)
        scores.append(score)  # expect: ML001
    return scores
