# The loader yields the ids of each batch next to its tokenized inputs; the loop moves the inputs to the
# device one entry at a time (`batch[k] = v.to(device)`), so the loader yields host data: the ids it
# never moves stay on the host, and collecting them grows no device memory (a retrieval encoder's loop).
import torch


def encode(model, encode_loader, device):
    model.eval()
    encoded, lookup_indices = [], []
    for batch_ids, batch in encode_loader:
        lookup_indices.extend(batch_ids)
        with torch.no_grad():
            for k, v in batch.items():
                batch[k] = v.to(device)
            encoded.append(model(batch).cpu())
    return torch.cat(encoded), lookup_indices


def encode_fields(model, encode_loader, device):
    model.eval()
    encoded, lookup_indices = [], []
    with torch.no_grad():
        for batch_ids, batch in encode_loader:
            batch["input_ids"] = batch["input_ids"].to(device)
            lookup_indices.extend(batch_ids)
            encoded.append(model(batch).cpu())
    return torch.cat(encoded), lookup_indices
