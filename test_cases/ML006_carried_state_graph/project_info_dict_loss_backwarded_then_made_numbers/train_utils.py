# Linted as one project with executor.py (a speech recipe's layout): `batch_backward` differentiates
# an entry of the `info_dict` it is handed, then replaces every loss in it with a Python number.
import torch


def batch_forward(model, batch, info_dict, device):
    with torch.cuda.amp.autocast(enabled=info_dict["use_amp"]):
        loss_dict = model(batch, device)
    info_dict["loss_dict"] = loss_dict
    return info_dict


def batch_backward(model, scaler, info_dict):
    loss = info_dict["loss_dict"]["loss"]
    if info_dict["train_engine"] == "deepspeed":
        scaled_loss = model.backward(loss)
    else:
        scaled_loss = loss / info_dict["accum_grad"]
        if scaler is not None:
            scaler.scale(scaled_loss).backward()
        else:
            scaled_loss.backward()
    info_dict["loss_dict"]["loss"] = scaled_loss
    for name, value in info_dict["loss_dict"].items():
        if value is not None:
            info_dict["loss_dict"][name] = value.item()
    return info_dict


def update_parameter_and_lr(optimizer, scheduler, info_dict):
    optimizer.step()
    optimizer.zero_grad()
    scheduler.step()
    return info_dict
