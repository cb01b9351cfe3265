"""`memlint verify`: prove a finding by running the script and measuring memory growth.

Nothing here runs on a plain `memlint` lint: only `memlint verify` executes
code, only the paths it is given, each in a child process.
"""
