# The same loop over the samples of each validation batch, but the list is made once before the
# batch loop: every sample of every batch stays on the device until the end.
import torch


def validate(model, val_loader):
    model.eval()
    styles = []
    with torch.no_grad():
        for mels, lengths in val_loader:
            for i in range(len(lengths)):
                style = model.style_encoder(mels[i, :, : lengths[i]].unsqueeze(0))
                styles.append(style.detach().cpu())  # expect: ML005
    return torch.cat(styles)
