# The loader's batch goes to the model as it comes (`model(*batch[:n_inp])`), so the loader
# yields device tensors: the inputs kept from every batch stay on the device.
import torch


def get_preds(model, loader, n_inp=1):
    inputs, outputs = [], []
    model.eval()
    with torch.no_grad():
        for batch in loader:
            inputs.append(batch[:n_inp])  # expect: ML005
            outputs.append(model(*batch[:n_inp]).cpu())
    return inputs, torch.cat(outputs)
