# The package re-exports its modules' functions by star imports: callers write `lib.learn(...)`, the
# definitions are in deep.py (the second star import) and metrics.py.
from .metrics import *  # noqa: F403
from .deep import *  # noqa: F403
