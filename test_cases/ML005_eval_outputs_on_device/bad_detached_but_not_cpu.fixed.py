# verify: leaks
# Eval loop after model.eval() without no_grad: outputs are .detach()ed but stay on the device (pytorch-forecasting PR 2228).
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = nn.Sequential(nn.Linear(48, 256), nn.ReLU(), nn.Linear(256, 256)).to(device)
    valid_loader = [torch.randn(512, 48) for _ in range(30)]
    model.eval()
    forecasts = []
    with torch.no_grad():
        for x in valid_loader:
            out = model(x.to(device))  # expect: ML003
            forecasts.append(out.detach().cpu())  # expect: ML005
    print("forecast:", torch.cat(forecasts).shape)


if __name__ == "__main__":
    main()
