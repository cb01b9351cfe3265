# A remote-code causal LM: the same cache is returned; the fix is unsafe (its forward may not take use_cache).
import torch
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("microsoft/phi-2", trust_remote_code=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)


def train_epoch(loader):
    for batch in loader:
        output = model(**batch)  # expect: ML018
        loss = output.loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
