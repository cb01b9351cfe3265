# The loader yields file names next to the images; the images are moved to the device before the
# model sees them, so nothing says the loader yields device tensors (lightly's embedding loop).
import torch


def embed(model, dataloader, device):
    model.eval()
    filenames, embeddings = [], []
    with torch.no_grad():
        for image_batch, label_batch, filename_batch in dataloader:
            image_batch = image_batch.to(device)
            filenames += [*filename_batch]
            embeddings.extend(model(image_batch).cpu().numpy())
    return embeddings, filenames
