# A script retries generation with fewer beams inside the except block.
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
inputs = tokenizer("Hello", return_tensors="pt").to("cuda")
out_of_memory = False
try:
    out = model.generate(**inputs, num_beams=16, max_new_tokens=256)
except torch.cuda.OutOfMemoryError:
    out_of_memory = True
if out_of_memory:
    torch.cuda.empty_cache()
    out = model.generate(**inputs, num_beams=4, max_new_tokens=256)  # expect: ML017
print(tokenizer.decode(out[0]))
