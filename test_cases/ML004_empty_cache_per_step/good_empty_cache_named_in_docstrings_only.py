# A helper module that only talks about empty_cache(), backward() and training loops in its
# docstrings and comments: no code of it frees the cache, steps or keeps anything per step.
"""Formatting for the trainer's log lines.

Call `torch.cuda.empty_cache()` yourself between training_step calls if you must; this module
never does. Example::

    >>> for batch in loader:
    ...     model(batch).backward()
"""


def format_line(step, number):
    """The log line for one optimizer step, e.g. `step 10: 0.25` (with `.item()` already taken)."""
    # for a tensor: call .cpu() and .item() first, or the line keeps its graph
    return "step %d: %.4f" % (step, number)


def header(name):
    """A header naming the run, printed once before the first epoch."""
    return "=" * 8 + " " + name + " " + "=" * 8
