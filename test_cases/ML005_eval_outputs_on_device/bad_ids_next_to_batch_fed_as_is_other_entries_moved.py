# The twin of good_ids_next_to_batch_moved_item_by_item.py: the loop moves the entries of a dict it is
# handed (the prompt, built once), not those of the batch, which goes to the model as the loader yields
# it: the loader yields device tensors, and the ids kept from each batch are there too.
import torch


def encode(model, encode_loader, prompt, device):
    model.eval()
    encoded, lookup_indices = [], []
    for batch_ids, batch in encode_loader:
        lookup_indices.append(batch_ids)  # expect: ML005
        with torch.no_grad():
            inputs = {k: v.to(device) for k, v in prompt.items()}
            encoded.append(model(batch, inputs).cpu())
    return torch.cat(encoded), lookup_indices
