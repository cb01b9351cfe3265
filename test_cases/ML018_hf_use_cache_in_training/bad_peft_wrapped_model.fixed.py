# A LoRA-wrapped causal LM forwards use_cache to the base model: the cache is returned on every step.
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

base = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-1.5B")
model = get_peft_model(base, LoraConfig(r=16, target_modules=["q_proj", "v_proj"]))
optimizer = torch.optim.AdamW((p for p in model.parameters() if p.requires_grad), lr=2e-4)


def train(loader):
    for batch in loader:
        out = model(input_ids=batch["input_ids"], labels=batch["labels"], use_cache=False)  # expect: ML018
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
