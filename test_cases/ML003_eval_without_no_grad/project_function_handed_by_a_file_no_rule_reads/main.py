from runner import Predictor


def halve(x):
    return x / 2


classifier = Predictor(halve)
print(classifier)
