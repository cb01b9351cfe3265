# The state dict of a layer this function makes on the host and never moves (its sizes read from
# the tokenizer and the options: any size is a size, no device), saved and read back by its file
# name without map_location: CPU tensors, and printing the layer moves nothing.
import os

import torch


def load_random_embeddings(tokenizer, args):
    model = torch.nn.Embedding(tokenizer.vocab_size, args.hidden_dim, padding_idx=tokenizer.pad_id)
    path_save = "{}/random_emb.torch".format(args.checkpoint_path)
    if os.path.exists(path_save):
        print("reload the random embeddings", model)
        model.load_state_dict(torch.load(path_save))
    else:
        print("initializing the random embeddings", model)
        torch.nn.init.normal_(model.weight)
        torch.save(model.state_dict(), path_save)
    return model
