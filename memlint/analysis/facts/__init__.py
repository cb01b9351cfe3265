"""Facts that one or two rules ask about: custom autograd Functions and their ctx, checkpoints, CUDA
initialisation, hook registrations and what they are registered on, and rank-0-only code."""
