# The package re-exports its functions: callers import them from here, their definitions are in
# similarity.py.
from .similarity import similarity_map, similarity_value

__all__ = ["similarity_map", "similarity_value"]
