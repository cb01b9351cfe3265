import torch

from util import eeco_test_network


def run_inference(network_fn, path, envs, steps, device):
    network = network_fn().to(device)
    network.load_state_dict(torch.load(path, map_location=device))
    network.eval()
    for test_env in envs:
        eeco_test_network(network, test_env, steps)
