# `model = model.to(device)` is the same model: its config still has use_cache on.
import torch
import transformers


def main(loader, device="cuda"):
    model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for input_ids in loader:
        result = model(input_ids.to(device), labels=input_ids.to(device))  # expect: ML018
        result.loss.backward()
        opt.step()
        opt.zero_grad()
