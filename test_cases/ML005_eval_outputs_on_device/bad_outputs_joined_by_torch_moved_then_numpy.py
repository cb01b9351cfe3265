# The twin of good_outputs_joined_by_torch_read_by_numpy.py: the joins are moved to the host before
# `.numpy()` (`torch.cat(...).cpu().numpy()`), or read by `.numpy(force=True)`, which copies a CUDA
# tensor to the host: nothing says the collected outputs are host values, so they stay on the device
# until the loop ends.
import torch


def valid_one_epoch(val_loader, model):
    model.eval()
    results = {"t-start": [], "label": []}
    for video_list in val_loader:
        with torch.no_grad():
            output = model(video_list)
            for vid_idx in range(len(output)):
                results["t-start"].append(output[vid_idx]["segments"][:, 0])  # expect: ML005
                results["label"].append(output[vid_idx]["labels"])  # expect: ML005
    results["t-start"] = torch.cat(results["t-start"]).cpu().numpy()
    results["label"] = torch.cat(results["label"]).numpy(force=True)
    return results
