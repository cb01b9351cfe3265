# Linted as one project with logging_utils.py: the loggers' `update` take their values as `**kwargs`.
from logging_utils import ItemLogger, ItemMappingLogger, MetricLogger


def train_one_epoch(model, criterion, loader, optimizer):
    logger = MetricLogger()
    items = ItemLogger()
    for x, y in loader:
        losses = criterion(model(x), y)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.update(loss=loss, n=x.shape[0])  # expect: ML001
        logger.update(**losses)  # expect: ML001
        logger.update(lr=optimizer.param_groups[0]["lr"], loss_value=loss.item())
        items.update(loss=loss, **losses)
    return logger, items


def train_mapping(model, criterion, loader, optimizer):
    logger = ItemMappingLogger()
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.update({"loss": loss})
    return logger
