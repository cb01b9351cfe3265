# verify: flat
# `running_loss += loss` chains every backwarded graph into one outer accumulator (warning).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Linear(16, 1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = [(torch.randn(8, 16, device=device), torch.randn(8, 1, device=device)) for _ in range(10)]
    for epoch in range(3):
        running_loss = 0.0
        for x, y in data:
            optimizer.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            running_loss += loss.detach()  # expect: ML001
        print(f"epoch {epoch}: {running_loss.item() / len(data):.4f}")


if __name__ == "__main__":
    main()
