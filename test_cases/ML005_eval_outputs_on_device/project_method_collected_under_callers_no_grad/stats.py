# Linted as one project with evaluator.py and train.py: `source` comes from the caller, its class out
# of sight here, and its `collect` runs with grad on.
def gather(source, loader):
    return source.collect(loader)
