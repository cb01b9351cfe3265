# Whether the scaler exists is the caller's choice (`use_scaler`), and no caller is in the file: the
# autocast is always bfloat16, so the finding assumes the flag does not also switch the model to
# float16 elsewhere, and is shown with `--preview` only. Its name decides nothing either way.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(model, batches, use_scaler):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if use_scaler:
        scaler = torch.amp.GradScaler(device)  # preview: ML015
    for x, y in batches:
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        if use_scaler:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    return loss.item()
