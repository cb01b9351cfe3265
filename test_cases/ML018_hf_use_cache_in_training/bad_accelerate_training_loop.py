# Accelerate's backward is a training loop too.
from accelerate import Accelerator
from transformers import LlamaForCausalLM


def train(loader, optimizer_cls):
    accelerator = Accelerator(mixed_precision="bf16")
    model = LlamaForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    optimizer = optimizer_cls(model.parameters())
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            outputs = model(**batch)  # expect: ML018
            accelerator.backward(outputs.loss)
            optimizer.step()
            optimizer.zero_grad()
