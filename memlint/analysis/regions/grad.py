"""Grad mode as a value: on, off, or decided only at run time (`set_grad_enabled(flag)`).

Its own module because both the framework tables (the grad mode each hook runs
under) and the grad-mode analysis that reads them state facts in it.
"""

from __future__ import annotations

import enum


class Grad(enum.Enum):
    ON = "on"
    OFF = "off"
    MAYBE = "maybe"
