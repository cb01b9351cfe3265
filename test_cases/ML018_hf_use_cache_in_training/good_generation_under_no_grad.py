# Generation and scoring without grad: the cache is what makes decoding fast, and no training step keeps it.
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2")


@torch.no_grad()
def score(prompts):
    scores = []
    for prompt in prompts:
        inputs = tokenizer(prompt, return_tensors="pt")
        outputs = model(**inputs, labels=inputs["input_ids"])
        scores.append(outputs.loss.item())
        tokens = model.generate(**inputs, max_new_tokens=20)
        print(tokenizer.decode(tokens[0]))
    return scores
