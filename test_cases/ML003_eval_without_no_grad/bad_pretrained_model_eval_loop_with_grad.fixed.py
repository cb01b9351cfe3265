# The twin of good_tokenizer_from_pretrained.py: the model made by `from_pretrained` runs in the
# evaluation loop with grad on.
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def main(name, batches):
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModelForCausalLM.from_pretrained(name)
    model.eval()
    with torch.no_grad():
        for batch in batches:
            encoded = tokenizer(batch, return_tensors="pt", padding=True)
            print(model(**encoded).logits.argmax(-1))  # expect: ML003
