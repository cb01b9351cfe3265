# A tokenizer made by `AutoTokenizer.from_pretrained` encodes text, it runs no model; generation
# itself runs under torch.no_grad() (llm-foundry's hf_generate).
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main(name, batches):
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModelForCausalLM.from_pretrained(name)
    model.eval()
    for batch in batches:
        encoded = tokenizer(batch, return_tensors="pt", padding=True)
        with torch.no_grad():
            print(tokenizer.batch_decode(model.generate(**encoded)))
