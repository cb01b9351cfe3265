from .terms import mean_nll, token_nll
