# The twins of good_load_of_host_layer_state_saved_here.py: the layer is moved to the GPU before its
# state dict is saved, or it is built from initial weights that may be on a device: the state dict
# read back without map_location lands where it was saved from.
import os

import torch


def load_random_embeddings(tokenizer, args, device):
    model = torch.nn.Embedding(tokenizer.vocab_size, args.hidden_dim).to(device)
    path_save = "{}/random_emb.torch".format(args.checkpoint_path)
    if os.path.exists(path_save):
        model.load_state_dict(torch.load(path_save))  # expect: ML011
    else:
        torch.nn.init.normal_(model.weight)
        torch.save(model.state_dict(), path_save)
    return model


def load_initial_embeddings(weights, args):
    model = torch.nn.Embedding(weights.size(0), weights.size(1), _weight=weights)
    path_save = "{}/initial_emb.torch".format(args.checkpoint_path)
    if os.path.exists(path_save):
        model.load_state_dict(torch.load(path_save))  # expect: ML011
    else:
        torch.save(model.state_dict(), path_save)
    return model
