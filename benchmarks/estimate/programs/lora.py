"""LoRA (peft, r=16 on attention and MLP projections) on a GPT-2 small (12 layers, d=768)
from a config, seq 512, batch 4, AdamW on the adapters only."""

import torch
from peft import LoraConfig, get_peft_model
from transformers import GPT2Config, GPT2LMHeadModel

from common import DEVICE, step_function

SEQ, BATCH = 512, 4


def build(mode):
    model = GPT2LMHeadModel(GPT2Config(n_positions=SEQ))
    if mode == "ckpt":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=["c_attn", "c_proj", "c_fc"],
                                             fan_in_fan_out=True, task_type="CAUSAL_LM")).to(DEVICE)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
    idx = torch.randint(0, 50257, (BATCH, SEQ), device=DEVICE)
    return model, opt, idx, lambda m, b: m(input_ids=b, labels=b).loss


def _factory(mode):
    def factory():
        return step_function(*build(mode), mode)
    return factory


fp32, bf16, ckpt = _factory("fp32"), _factory("bf16"), _factory("ckpt")
