# The loop over the samples of one validation batch collects a style vector per sample into a list
# that the batch loop empties for every batch and stacks at once: one batch's worth, nothing grows.
import torch


def validate(model, val_loader):
    model.eval()
    scores = []
    with torch.no_grad():
        for mels, lengths in val_loader:
            styles = []
            for i in range(len(lengths)):
                style = model.style_encoder(mels[i, :, : lengths[i]].unsqueeze(0))
                styles.append(style)
            batch_styles = torch.stack(styles).squeeze(1)
            scores.append(model.predictor(mels, batch_styles).mean().item())
    return sum(scores) / len(scores)
