# The model's outputs are collected per video under entries of a dict, and after the loop each entry is
# joined by `torch.cat` and read with `.numpy()` at once: `Tensor.numpy()` refuses a CUDA tensor, and the
# join keeps its inputs' device, so what the loop collected are host tensors (the model's postprocessing
# moved them), and nothing on the device grows.
import torch


def valid_one_epoch(val_loader, model):
    model.eval()
    results = {"t-start": [], "label": []}
    for video_list in val_loader:
        with torch.no_grad():
            output = model(video_list)
            for vid_idx in range(len(output)):
                results["t-start"].append(output[vid_idx]["segments"][:, 0])
                results["label"].append(output[vid_idx]["labels"])
    results["t-start"] = torch.cat(results["t-start"]).numpy()
    results["label"] = torch.cat(results["label"]).numpy()
    return results


def predict(model, loader):
    preds = []
    with torch.no_grad():
        for batch in loader:
            preds.append(model(batch))
    return torch.stack(preds).numpy()
