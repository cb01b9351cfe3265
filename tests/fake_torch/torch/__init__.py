"""Stands in for torch on the language server's path in tests/test_server.py: importing it ends the process."""

import os
import sys

sys.stderr.write("memlint server imported torch\n")
sys.stderr.flush()
os._exit(86)
