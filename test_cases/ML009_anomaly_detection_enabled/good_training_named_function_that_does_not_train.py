# A function named like training (`train_tokenizer`) whose body, in this file, runs no backward:
# anomaly mode around it checks nothing, so it costs nothing. The body decides, not the name.
import torch


def train_tokenizer(texts):
    vocabulary = sorted({word for text in texts for word in text.split()})
    return {word: index for index, word in enumerate(vocabulary)}


def prepare(texts):
    with torch.autograd.detect_anomaly():
        return train_tokenizer(texts)
