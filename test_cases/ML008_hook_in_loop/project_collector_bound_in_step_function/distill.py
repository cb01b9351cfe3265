# Linted as one project with features.py: a step function, called once per batch, binds a new
# `FeatureCollector`, whose hooks nothing can remove; the scoped one is closed in the same step.
from features import FeatureCollector, ScopedCollector


def distill_step(student, teacher, batch, optimizer, criterion):
    collector = FeatureCollector(student, ["layer3"])  # expect: ML008
    logits = student(batch)
    loss = criterion(logits, teacher(batch)) + collector.features["layer3"].pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def distill_step_scoped(student, teacher, batch, optimizer, criterion):
    collector = ScopedCollector(student, ["layer3"])
    logits = student(batch)
    loss = criterion(logits, teacher(batch)) + collector.features["layer3"].pow(2).mean()
    collector.close()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(student, teacher, loader, optimizer, criterion):
    for batch in loader:
        distill_step(student, teacher, batch, optimizer, criterion)
        distill_step_scoped(student, teacher, batch, optimizer, criterion)
